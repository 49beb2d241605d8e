// Members and invitations of the caller's organisation; every route needs a billing admin (owner or admin).
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../http/router.ts";
import { authErrors, bearerSecurity, pickErrors } from "../http/openapi.ts";
import { requireAuth } from "../auth/middleware.ts";
import { idpAdmin } from "../auth/idp-admin.ts";
import { requireBillingAdmin } from "./membership.ts";
import { changeRole, listMembers, removeMember } from "./members.ts";
import { createInvite, listInvites, revokeInvite } from "./invites.ts";
import { uuidParam } from "../http/params.ts";
import {
  InviteCreateSchema,
  InviteIdParam,
  InviteRevokedSchema,
  InviteSchema,
  MemberIdParam,
  MemberRemovedSchema,
  MemberRoleUpdateSchema,
  MemberSchema,
  json,
} from "./schemas.ts";

// 403: caller is a member; 404: not in the caller's organisation (or no organisation yet); 503: database or identity provider down.
const adminErrors = { ...authErrors, ...pickErrors(403, 404, 503) };
const base = { security: bearerSecurity, middleware: requireAuth };

export const memberRoutes = createRouter()
  .openapi(
    createRoute({
      ...base,
      tags: ["members"],
      method: "get",
      path: "/billing/org/members",
      summary: "Members with e-mail and display name from the identity provider (null when it cannot say)",
      responses: { 200: json(z.array(MemberSchema), "The members"), ...adminErrors },
    }),
    async (c) => {
      const db = c.get("services").db();
      const m = await requireBillingAdmin({ db, userId: c.get("principal").userId });
      return c.json(await listMembers({ db, orgId: m.orgId, idp: idpAdmin(c.get("config").identityProvider), log: c.get("services").log }), 200);
    },
  )
  .openapi(
    createRoute({
      ...base,
      tags: ["members"],
      method: "put",
      path: "/billing/org/members/{member_id}/role",
      summary: "Change a member's role (not the owner's)",
      request: { params: MemberIdParam, body: { required: true, content: { "application/json": { schema: MemberRoleUpdateSchema } } } },
      responses: { 200: json(MemberSchema, "The updated member"), ...adminErrors, ...pickErrors(400) },
    }),
    async (c) => {
      const { role } = c.req.valid("json");
      const db = c.get("services").db();
      const m = await requireBillingAdmin({ db, userId: c.get("principal").userId });
      const memberId = uuidParam(c.req.valid("param").member_id, "member_id");
      return c.json(await changeRole({ db, orgId: m.orgId, memberId, role, idp: idpAdmin(c.get("config").identityProvider), log: c.get("services").log }), 200);
    },
  )
  .openapi(
    createRoute({
      ...base,
      tags: ["members"],
      method: "delete",
      path: "/billing/org/members/{member_id}",
      summary: "Remove a member (not the owner, not yourself)",
      request: { params: MemberIdParam },
      responses: { 200: json(MemberRemovedSchema, "The member was removed"), ...adminErrors, ...pickErrors(400) },
    }),
    async (c) => {
      const db = c.get("services").db();
      const m = await requireBillingAdmin({ db, userId: c.get("principal").userId });
      const memberId = uuidParam(c.req.valid("param").member_id, "member_id");
      return c.json(await removeMember({ db, orgId: m.orgId, memberId, callerMembershipId: m.membershipId }), 200);
    },
  )
  .openapi(
    createRoute({
      ...base,
      tags: ["invitations"],
      method: "post",
      path: "/billing/invite",
      summary: "Invite someone by e-mail; the invitation lives 7 days",
      request: { body: { required: true, content: { "application/json": { schema: InviteCreateSchema } } } },
      responses: { 200: json(InviteSchema, "The pending invitation"), ...adminErrors, ...pickErrors(409) },
    }),
    async (c) => {
      const { email, role } = c.req.valid("json");
      const db = c.get("services").db();
      const m = await requireBillingAdmin({ db, userId: c.get("principal").userId });
      return c.json(await createInvite({ db, orgId: m.orgId, invitedBy: m.userId, email, role, idp: idpAdmin(c.get("config").identityProvider) }), 200);
    },
  )
  .openapi(
    createRoute({
      ...base,
      tags: ["invitations"],
      method: "get",
      path: "/billing/invites",
      summary: "Pending invitations that have not expired, newest first",
      responses: { 200: json(z.array(InviteSchema), "The invitations"), ...adminErrors },
    }),
    async (c) => {
      const db = c.get("services").db();
      const m = await requireBillingAdmin({ db, userId: c.get("principal").userId });
      return c.json(await listInvites({ db, orgId: m.orgId }), 200);
    },
  )
  .openapi(
    createRoute({
      ...base,
      tags: ["invitations"],
      method: "delete",
      path: "/billing/invite/{invite_id}",
      summary: "Revoke a pending invitation (404 when missing or already processed)",
      request: { params: InviteIdParam },
      responses: { 200: json(InviteRevokedSchema, "The invitation was revoked"), ...adminErrors, ...pickErrors(400) },
    }),
    async (c) => {
      const db = c.get("services").db();
      const m = await requireBillingAdmin({ db, userId: c.get("principal").userId });
      const inviteId = uuidParam(c.req.valid("param").invite_id, "invite_id");
      return c.json(await revokeInvite({ db, orgId: m.orgId, inviteId }), 200);
    },
  );
