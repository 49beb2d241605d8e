// A world thread's heap: a suburb needs a few tens of MB; the cap makes V8 collect early, so the whole build
// (three threads) stays within a few hundred MB.
export const WORKER_HEAP = { maxOldGenerationSizeMb: 160, maxYoungGenerationSizeMb: 16 };
