// The demo seed: the organisation, its three members and their password, as `npm run dev` and the tests create them.
export const DEMO_PASSWORD = "demo-password";
export const DEMO_ORG = {
  id: "0d000000-0000-4000-8000-000000000001",
  name: "Demo Team",
  slug: "demo-team",
  credits: 100,
} as const;
export const DEMO_USERS = [
  { id: "00000000-0000-4000-8000-000000000001", email: "owner@demo.test", role: "owner", displayName: "Olivia Owner" },
  { id: "00000000-0000-4000-8000-000000000002", email: "admin@demo.test", role: "admin", displayName: "Adam Admin" },
  { id: "00000000-0000-4000-8000-000000000003", email: "member@demo.test", role: "member", displayName: "Mia Member" },
] as const;
