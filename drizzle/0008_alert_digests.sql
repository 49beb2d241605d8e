CREATE TABLE "alert_digest_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"alert_id" uuid NOT NULL,
	"publish_key" text NOT NULL,
	"pack_id" text NOT NULL,
	"version_from" text NOT NULL,
	"version_to" text NOT NULL,
	"changes" integer NOT NULL,
	"listed" json NOT NULL,
	"email_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alert_emails" ADD COLUMN "publishes" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_digest_items" ADD CONSTRAINT "alert_digest_items_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_digest_items" ADD CONSTRAINT "alert_digest_items_email_id_alert_emails_id_fk" FOREIGN KEY ("email_id") REFERENCES "public"."alert_emails"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alert_digest_items_alert_publish_unique" ON "alert_digest_items" USING btree ("alert_id","publish_key");