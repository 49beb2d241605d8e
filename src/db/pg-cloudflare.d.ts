// pg-cloudflare's types describe only its default (empty) export; its `workerd` export is this socket.
declare module "pg-cloudflare" {
  import type { EventEmitter } from "node:events";
  /** A node:net-like socket over Cloudflare's connect(), as node-postgres drives it. */
  export class CloudflareSocket extends EventEmitter {
    constructor(ssl: boolean);
  }
}
