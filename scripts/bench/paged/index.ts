// The v2 pack suites `npm run bench` runs as pack-memory, pack-reads and pack-speed.
export { runPackMemoryBenches } from "./memory.ts";
export { runPackReadsBenches } from "./reads.ts";
export { runPackSpeedBenches } from "./speed.ts";
