// Members and invitations of the caller's organisation; every route needs a billing admin (owner or admin).
import { z } from "@hono/zod-openapi";
import { requireAuth, requireRole } from "../request/access.ts";
import { json, pickErrors } from "../http/openapi.ts";
import { uuidParam } from "../http/params.ts";
import { rateLimit } from "../request/rate-limit.ts";
import { route } from "../http/route.ts";
import { createRouter } from "../request/router.ts";
import { createInvite, listInvites, revokeInvite } from "../orgs/invites.ts";
import { changeRole, listMembers, removeMember } from "../orgs/members.ts";
import {
  InviteCreateSchema,
  InviteIdParam,
  InviteRevokedSchema,
  InviteSchema,
  MemberIdParam,
  MemberRemovedSchema,
  MemberRoleUpdateSchema,
  MemberSchema,
} from "./schemas/billing.ts";

// 503: the database or the identity provider is down.
const unavailable = pickErrors(503);

export const memberRoutes = createRouter()
  .openapi(
    route({
      tags: ["members"],
      middleware: [requireAuth, requireRole("admin")],
      method: "get",
      path: "/billing/org/members",
      summary: "Members with e-mail and display name from the identity provider (null when it cannot say)",
      responses: { 200: json(z.array(MemberSchema), "The members"), ...unavailable },
    }),
    async (c) => {
      const { db, idp, log } = c.var.services;
      return c.json(await listMembers({ db: db(), orgId: c.var.membership.orgId, idp, log }), 200);
    },
  )
  .openapi(
    route({
      tags: ["members"],
      middleware: [requireAuth, requireRole("admin")],
      method: "put",
      path: "/billing/org/members/{member_id}/role",
      summary: "Change a member's role (not the owner's)",
      request: {
        params: MemberIdParam,
        body: { required: true, content: { "application/json": { schema: MemberRoleUpdateSchema } } },
      },
      responses: { 200: json(MemberSchema, "The updated member"), ...unavailable, ...pickErrors(400) },
    }),
    async (c) => {
      const { role } = c.req.valid("json");
      const memberId = uuidParam(c.req.valid("param").member_id, "member_id");
      const { db, idp, log } = c.var.services;
      return c.json(await changeRole({ db: db(), orgId: c.var.membership.orgId, memberId, role, idp, log }), 200);
    },
  )
  .openapi(
    route({
      tags: ["members"],
      middleware: [requireAuth, requireRole("admin")],
      method: "delete",
      path: "/billing/org/members/{member_id}",
      summary: "Remove a member (not the owner, not yourself)",
      request: { params: MemberIdParam },
      responses: { 200: json(MemberRemovedSchema, "The member was removed"), ...unavailable, ...pickErrors(400) },
    }),
    async (c) => {
      const memberId = uuidParam(c.req.valid("param").member_id, "member_id");
      const { orgId, membershipId } = c.var.membership;
      return c.json(
        await removeMember({ db: c.var.services.db(), orgId, memberId, callerMembershipId: membershipId }),
        200,
      );
    },
  )
  .openapi(
    route({
      tags: ["invitations"],
      middleware: [requireAuth, requireRole("admin"), rateLimit("invite")],
      method: "post",
      path: "/billing/invite",
      summary: "Invite someone by e-mail; the invitation lives 7 days",
      request: { body: { required: true, content: { "application/json": { schema: InviteCreateSchema } } } },
      responses: { 200: json(InviteSchema, "The pending invitation"), ...unavailable, ...pickErrors(409, 429) },
    }),
    async (c) => {
      const { email, role } = c.req.valid("json");
      const { orgId, userId } = c.var.membership;
      const { db, idp } = c.var.services;
      return c.json(await createInvite({ db: db(), orgId, invitedBy: userId, email, role, idp }), 200);
    },
  )
  .openapi(
    route({
      tags: ["invitations"],
      middleware: [requireAuth, requireRole("admin")],
      method: "get",
      path: "/billing/invites",
      summary: "Pending invitations that have not expired, newest first",
      responses: { 200: json(z.array(InviteSchema), "The invitations"), ...unavailable },
    }),
    async (c) => c.json(await listInvites({ db: c.var.services.db(), orgId: c.var.membership.orgId }), 200),
  )
  .openapi(
    route({
      tags: ["invitations"],
      middleware: [requireAuth, requireRole("admin")],
      method: "delete",
      path: "/billing/invite/{invite_id}",
      summary: "Revoke a pending invitation (404 when missing or already processed)",
      request: { params: InviteIdParam },
      responses: { 200: json(InviteRevokedSchema, "The invitation was revoked"), ...unavailable, ...pickErrors(400) },
    }),
    async (c) => {
      const inviteId = uuidParam(c.req.valid("param").invite_id, "invite_id");
      return c.json(await revokeInvite({ db: c.var.services.db(), orgId: c.var.membership.orgId, inviteId }), 200);
    },
  );
