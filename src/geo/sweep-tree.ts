// The sweep's status: a treap of edge ids with parent links, so an edge is removed and its neighbours found by id.

export class SweepTree {
  private root = -1;
  private readonly left: Int32Array;
  private readonly right: Int32Array;
  private readonly up: Int32Array;
  private readonly priority: Float64Array;

  constructor(size: number) {
    this.left = new Int32Array(size).fill(-1);
    this.right = new Int32Array(size).fill(-1);
    this.up = new Int32Array(size).fill(-1);
    this.priority = new Float64Array(size);
  }

  /** Inserts `s` where `below(t)` says: true puts s before t. */
  insert(s: number, below: (t: number) => boolean): void {
    let parent = -1;
    let goLeft = false;
    for (let t = this.root; t !== -1; t = goLeft ? (this.left[t] as number) : (this.right[t] as number)) {
      parent = t;
      goLeft = below(t);
    }
    this.left[s] = -1;
    this.right[s] = -1;
    this.up[s] = parent;
    // Random priorities keep the expected depth logarithmic whatever order a hostile input inserts in.
    this.priority[s] = Math.random();
    if (parent === -1) this.root = s;
    else if (goLeft) this.left[parent] = s;
    else this.right[parent] = s;
    while (this.up[s] !== -1 && (this.priority[this.up[s] as number] as number) < (this.priority[s] as number))
      this.rotateUp(s);
  }

  remove(s: number): void {
    for (;;) {
      const l = this.left[s] as number;
      const r = this.right[s] as number;
      if (l === -1 && r === -1) break;
      const pick = l === -1 ? r : r === -1 ? l : (this.priority[l] as number) > (this.priority[r] as number) ? l : r;
      this.rotateUp(pick);
    }
    const p = this.up[s] as number;
    if (p === -1) this.root = -1;
    else if (this.left[p] === s) this.left[p] = -1;
    else this.right[p] = -1;
    this.up[s] = -1;
  }

  /** The edge just before `s` in order, or -1. */
  prev(s: number): number {
    return this.step(s, this.left, this.right);
  }

  /** The edge just after `s` in order, or -1. */
  next(s: number): number {
    return this.step(s, this.right, this.left);
  }

  // In-order neighbour on the `near` side: the far-most node of that subtree, else the first ancestor reached from the other side.
  private step(s: number, near: Int32Array, far: Int32Array): number {
    let x = near[s] as number;
    if (x !== -1) {
      while (far[x] !== -1) x = far[x] as number;
      return x;
    }
    x = s;
    let p = this.up[x] as number;
    while (p !== -1 && near[p] === x) {
      x = p;
      p = this.up[x] as number;
    }
    return p;
  }

  private rotateUp(x: number): void {
    const p = this.up[x] as number;
    const g = this.up[p] as number;
    if (this.left[p] === x) {
      const b = this.right[x] as number;
      this.left[p] = b;
      if (b !== -1) this.up[b] = p;
      this.right[x] = p;
    } else {
      const b = this.left[x] as number;
      this.right[p] = b;
      if (b !== -1) this.up[b] = p;
      this.left[x] = p;
    }
    this.up[p] = x;
    this.up[x] = g;
    if (g === -1) this.root = x;
    else if (this.left[g] === p) this.left[g] = x;
    else this.right[g] = x;
  }
}
