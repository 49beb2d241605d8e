// Another request's work, as the isolate sees it: a timer that re-arms itself, so it advances only while the code under
// test yields a macrotask. Pure TypeScript: unit tests and tests in workerd use it.

/** Starts the chain; the function it returns stops it and gives how many times it ran. */
export function timerChain(): () => number {
  let ticks = 0;
  let running = true;
  const tick = () => {
    if (!running) return;
    ticks++;
    setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
  return () => {
    running = false;
    return ticks;
  };
}
