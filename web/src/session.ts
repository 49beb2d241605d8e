// Sign-in through the identity provider (supabase-js), then the post-signup step that gives the user an organisation.
import { createClient, type Session, type SupabaseClient } from "@supabase/supabase-js";
import { Api, type PageConfig, type PostSignup, Problem } from "./api.ts";

export type Auth = { supabase: SupabaseClient; api: Api; config: PageConfig };

export async function loadAuth(): Promise<Auth> {
  const res = await fetch("/config.json");
  const config = (await res.json()) as PageConfig;
  if (!config.auth_url || !config.anon_key)
    throw new Error("Sign-in is not configured on this server (SUPABASE_URL and SUPABASE_ANON_KEY).");
  const supabase = createClient(config.auth_url, config.anon_key, {
    auth: { persistSession: true, autoRefreshToken: true, storageKey: "geo-assess-auth" },
  });
  const api = new Api(async () => (await supabase.auth.getSession()).data.session?.access_token ?? null);
  return { supabase, api, config };
}

const sentence = (message: string) =>
  /invalid login|invalid credentials|invalid_grant/i.test(message)
    ? "That e-mail and password do not match an account."
    : /already registered|already exists/i.test(message)
      ? "An account with this e-mail already exists: sign in instead."
      : message;

export async function signIn(auth: Auth, email: string, password: string): Promise<Session> {
  const { data, error } = await auth.supabase.auth.signInWithPassword({ email, password });
  if (error || !data.session) throw new Problem(sentence(error?.message ?? "Sign-in failed."), 401, "none");
  return data.session;
}

export async function signUp(auth: Auth, email: string, password: string): Promise<Session> {
  const { data, error } = await auth.supabase.auth.signUp({ email, password });
  if (error) throw new Problem(sentence(error.message), 400, "none");
  if (data.session) return data.session;
  return signIn(auth, email, password);
}

/** Joins an invited organisation or creates a personal one (idempotent): the organisation and the user's role in it. */
export const postSignup = (auth: Auth): Promise<PostSignup> => auth.api.post<PostSignup>("/auth/post-signup");
