// The sign-up bonus as parts of post-signup's one statement: who gets it, the new organisation's opening balance, its entry.
import { sql, type SQL } from "drizzle-orm";
import { creditsText } from "./entry.ts";
import { ledgerEntry } from "./moves.ts";

export const signupBonusKey = (userId: string): string => `signup_bonus:${userId}`;

export interface SignupBonus {
  /** CTE body named `eligible`: one row with the bonus when the user never belonged to an organisation, else none. */
  eligible: SQL;
  /**
   * CTE body creating the organisation with the bonus (or 0) as its opening balance, when `unless` does not hold;
   * returns the whole row. (A balance move cannot reach a row inserted by the same statement, so it opens with it.)
   */
  organisation(org: { name: string; orgType: string; unless: SQL }): SQL;
  /** CTE body appending the bonus entry once the membership CTE `mem` (with `org_id`) exists. */
  entry: SQL;
}

export function signupBonus(userId: string, credits: number): SignupBonus {
  const bonus = creditsText(Math.max(0, credits));
  return {
    eligible: sql`select ${bonus}::numeric as amount
      where ${bonus}::numeric > 0
        and not exists (select 1 from invitations where accepted_by = ${userId})
        and not exists (select 1 from credit_ledger where user_id = ${userId})`,
    organisation: ({ name, orgType, unless }) => sql`insert into organisations (name, org_type, credit_balance)
      select ${name}, ${orgType}, coalesce((select amount from eligible), 0)
      where not ${unless}
      returning *`,
    entry: ledgerEntry({
      from: sql`mem cross join eligible`,
      orgId: sql`mem.org_id`,
      userId,
      amount: sql`eligible.amount`,
      balanceAfter: sql`eligible.amount`,
      type: "signup_bonus",
      description: "Sign-up bonus",
      idempotencyKey: signupBonusKey(userId),
    }),
  };
}
