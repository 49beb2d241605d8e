-- A settled job is final: its amounts and ledger entries can no longer change, and no job is deleted.
CREATE OR REPLACE FUNCTION charged_jobs_guard() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'charged_jobs rows are never deleted';
  END IF;
  IF OLD.status = 'settled' THEN
    RAISE EXCEPTION 'charged job % is settled and final', OLD.id;
  END IF;
  IF NEW.id <> OLD.id OR NEW.org_id <> OLD.org_id OR NEW.units <> OLD.units OR NEW.unit_price <> OLD.unit_price
     OR NEW.charged <> OLD.charged OR NEW.debit_entry_id <> OLD.debit_entry_id OR NEW.action <> OLD.action THEN
    RAISE EXCEPTION 'the charge of job % cannot change', OLD.id;
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER charged_jobs_guard
  BEFORE UPDATE OR DELETE ON charged_jobs
  FOR EACH ROW EXECUTE FUNCTION charged_jobs_guard();
