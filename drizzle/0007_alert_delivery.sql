CREATE TABLE "alert_dead_letters" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"message_id" text NOT NULL,
	"body" json NOT NULL,
	"attempts" integer NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_emails" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"alert_id" uuid NOT NULL,
	"publish_key" text NOT NULL,
	"changes" integer NOT NULL,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "used_unsubscribe_tokens" (
	"jti" text PRIMARY KEY NOT NULL,
	"alert_id" uuid NOT NULL,
	"used_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alert_emails" ADD CONSTRAINT "alert_emails_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alert_dead_letters_message_unique" ON "alert_dead_letters" USING btree ("message_id");--> statement-breakpoint
CREATE UNIQUE INDEX "alert_emails_alert_publish_unique" ON "alert_emails" USING btree ("alert_id","publish_key");