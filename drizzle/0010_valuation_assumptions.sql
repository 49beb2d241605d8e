CREATE TABLE "valuation_assumptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"document" json NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "valuation_assumptions_version_positive" CHECK ("valuation_assumptions"."version" >= 1)
);
--> statement-breakpoint
ALTER TABLE "valuation_assumptions" ADD CONSTRAINT "valuation_assumptions_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "valuation_assumptions_org_version_unique" ON "valuation_assumptions" USING btree ("org_id","version");--> statement-breakpoint
-- Each edit is a new version and a stored result names the version it used: the database refuses to change one.
CREATE OR REPLACE FUNCTION valuation_assumptions_forbid_change() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'valuation_assumptions is append-only: % is not allowed', TG_OP;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER valuation_assumptions_append_only
  BEFORE UPDATE OR DELETE ON valuation_assumptions
  FOR EACH ROW EXECUTE FUNCTION valuation_assumptions_forbid_change();
