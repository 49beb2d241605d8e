-- The ledger is append-only: the database itself refuses to change or remove an entry.
CREATE OR REPLACE FUNCTION credit_ledger_forbid_change() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'credit_ledger is append-only: % is not allowed', TG_OP;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER credit_ledger_append_only
  BEFORE UPDATE OR DELETE ON credit_ledger
  FOR EACH ROW EXECUTE FUNCTION credit_ledger_forbid_change();
