CREATE TABLE "charged_jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"user_id" uuid,
	"action" text NOT NULL,
	"status" text DEFAULT 'charged' NOT NULL,
	"units" integer NOT NULL,
	"unit_price" numeric(14, 4) NOT NULL,
	"charged" numeric(14, 4) NOT NULL,
	"units_done" integer DEFAULT 0 NOT NULL,
	"refunded" numeric(14, 4),
	"debit_entry_id" uuid NOT NULL,
	"refund_entry_id" uuid,
	"settle_after" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	"settled_by" text,
	CONSTRAINT "charged_jobs_action_check" CHECK ("charged_jobs"."action" in ('batch_score', 'report', 'chat')),
	CONSTRAINT "charged_jobs_status_check" CHECK ("charged_jobs"."status" in ('charged', 'settled')),
	CONSTRAINT "charged_jobs_units_check" CHECK ("charged_jobs"."units" > 0 and "charged_jobs"."units_done" between 0 and "charged_jobs"."units"),
	CONSTRAINT "charged_jobs_settled_fields" CHECK (("charged_jobs"."status" = 'settled') = ("charged_jobs"."settled_at" is not null and "charged_jobs"."refunded" is not null and "charged_jobs"."settled_by" is not null)),
	CONSTRAINT "charged_jobs_refund_bounded" CHECK ("charged_jobs"."refunded" is null or ("charged_jobs"."refunded" >= 0 and "charged_jobs"."refunded" <= "charged_jobs"."charged"))
);
--> statement-breakpoint
ALTER TABLE "charged_jobs" ADD CONSTRAINT "charged_jobs_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charged_jobs" ADD CONSTRAINT "charged_jobs_debit_entry_id_credit_ledger_id_fk" FOREIGN KEY ("debit_entry_id") REFERENCES "public"."credit_ledger"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charged_jobs" ADD CONSTRAINT "charged_jobs_refund_entry_id_credit_ledger_id_fk" FOREIGN KEY ("refund_entry_id") REFERENCES "public"."credit_ledger"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "charged_jobs_debit_unique" ON "charged_jobs" USING btree ("debit_entry_id");--> statement-breakpoint
CREATE UNIQUE INDEX "charged_jobs_refund_unique" ON "charged_jobs" USING btree ("refund_entry_id");--> statement-breakpoint
CREATE INDEX "charged_jobs_due_idx" ON "charged_jobs" USING btree ("settle_after") WHERE "charged_jobs"."status" = 'charged';