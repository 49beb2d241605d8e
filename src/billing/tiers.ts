// The tier table: what each subscription tier costs and grants. Processor price ids come from config (STRIPE_PRICE_<TIER>), never from here.

export interface Tier {
  id: string;
  name: string;
  /** Credits granted per month. */
  credits: number;
  /** Monthly price in AUD cents. */
  priceCents: number;
  features: string[];
}

// Every plan may upload private packs, up to MAX_PRIVATE_PACKS (src/packs/upload/uploads.ts) per organisation.
const PRIVATE_PACKS = "Private data packs, up to 20";
// No plan gates a feature: every one is paid in credits, so the plans differ only in the credits they grant.
const EVERY_FEATURE = "Site scores, batches of up to 50 sites, PDF reports and chat";

export const TIERS: readonly Tier[] = [
  {
    id: "free",
    name: "Free",
    credits: 10,
    priceCents: 0,
    features: ["10 credits on sign-up", EVERY_FEATURE, PRIVATE_PACKS],
  },
  {
    id: "starter",
    name: "Starter",
    credits: 100,
    priceCents: 2900,
    features: ["100 credits per month", EVERY_FEATURE, PRIVATE_PACKS],
  },
  {
    id: "pro",
    name: "Pro",
    credits: 500,
    priceCents: 9900,
    features: ["500 credits per month", EVERY_FEATURE, PRIVATE_PACKS],
  },
  {
    id: "team",
    name: "Team",
    credits: 2000,
    priceCents: 29900,
    features: ["2,000 credits per month", EVERY_FEATURE, PRIVATE_PACKS],
  },
];

export function findTier(id: string): Tier | undefined {
  return TIERS.find((t) => t.id === id);
}

/** Tiers that can be bought (every tier with a price). */
export function paidTiers(): Tier[] {
  return TIERS.filter((t) => t.priceCents > 0);
}

/** "A$29/month", or "Free". */
export function priceDisplay(cents: number): string {
  if (cents === 0) return "Free";
  const dollars = cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2);
  return `A$${dollars}/month`;
}

export interface TierInfo {
  id: string;
  name: string;
  credits: number;
  price_cents: number;
  price_display: string;
  features: string[];
}

export function listTiers(): TierInfo[] {
  return TIERS.map((t) => ({
    id: t.id,
    name: t.name,
    credits: t.credits,
    price_cents: t.priceCents,
    price_display: priceDisplay(t.priceCents),
    features: [...t.features],
  }));
}
