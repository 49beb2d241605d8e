CREATE TABLE "stored_batch_jobs" (
	"job_id" uuid PRIMARY KEY NOT NULL,
	"batch_id" uuid NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stored_batch_rows" (
	"batch_id" uuid NOT NULL,
	"idx" integer NOT NULL,
	"job_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"model_version" text,
	"charge_seq" integer,
	"data" json NOT NULL,
	"delivered" boolean DEFAULT false NOT NULL,
	"stored_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stored_batch_rows_batch_id_idx_pk" PRIMARY KEY("batch_id","idx"),
	CONSTRAINT "stored_batch_rows_kind_check" CHECK ("stored_batch_rows"."kind" in ('result', 'error')),
	CONSTRAINT "stored_batch_rows_idx_check" CHECK ("stored_batch_rows"."idx" >= 0),
	CONSTRAINT "stored_batch_rows_charge_check" CHECK ("stored_batch_rows"."charge_seq" is null or ("stored_batch_rows"."kind" = 'result' and "stored_batch_rows"."charge_seq" > 0))
);
--> statement-breakpoint
CREATE TABLE "stored_batches" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"user_id" uuid,
	"filename" text NOT NULL,
	"mode" text NOT NULL,
	"rows" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "stored_batches_mode_check" CHECK ("stored_batches"."mode" in ('latlon', 'lot')),
	CONSTRAINT "stored_batches_rows_check" CHECK ("stored_batches"."rows" > 0)
);
--> statement-breakpoint
CREATE TABLE "stored_reports" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"user_id" uuid,
	"filename" text NOT NULL,
	"location" text,
	"pages" integer NOT NULL,
	"bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"object_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "stored_reports_size_check" CHECK ("stored_reports"."pages" > 0 and "stored_reports"."bytes" > 0)
);
--> statement-breakpoint
ALTER TABLE "stored_batch_jobs" ADD CONSTRAINT "stored_batch_jobs_job_id_charged_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."charged_jobs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stored_batch_jobs" ADD CONSTRAINT "stored_batch_jobs_batch_id_stored_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."stored_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stored_batch_rows" ADD CONSTRAINT "stored_batch_rows_batch_id_stored_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."stored_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stored_batch_rows" ADD CONSTRAINT "stored_batch_rows_job_id_charged_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."charged_jobs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stored_batches" ADD CONSTRAINT "stored_batches_id_charged_jobs_id_fk" FOREIGN KEY ("id") REFERENCES "public"."charged_jobs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stored_batches" ADD CONSTRAINT "stored_batches_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stored_reports" ADD CONSTRAINT "stored_reports_id_charged_jobs_id_fk" FOREIGN KEY ("id") REFERENCES "public"."charged_jobs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stored_reports" ADD CONSTRAINT "stored_reports_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stored_batch_jobs_batch_idx" ON "stored_batch_jobs" USING btree ("batch_id");--> statement-breakpoint
CREATE INDEX "stored_batches_org_created_idx" ON "stored_batches" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "stored_batches_expires_idx" ON "stored_batches" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "stored_reports_org_created_idx" ON "stored_reports" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "stored_reports_expires_idx" ON "stored_reports" USING btree ("expires_at");