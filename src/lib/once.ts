// A thunk run at most once: later calls share the first call's promise (a question reads its assumptions once).
export function once<T>(run: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= run();
    return pending;
  };
}
