// The baseline for `npm run load`: a bare Hono worker answering GET /health with the same shape, no middleware.
import { Hono } from "hono";

const app = new Hono();
app.get("/health", (c) => c.json({ status: "ok", packs_loaded: 0 }));

export default app;
