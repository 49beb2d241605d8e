// Long work on the isolate yields here between bounded steps (searches, uploads, builds, reports).

/** Resolves on a macrotask, not a microtask: only this lets another request's events run on the isolate. */
export const nextTask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));
