/**
 * Loops in a graph given by its edges: the plan's references, a schema's
 * in-place keywords, a wire schema's `$ref`s. What each graph is and why a
 * loop in it is refused is its caller's; finding one is here, once.
 */

/**
 * A node on a loop of `next` edges reached from one of `starts`, or
 * undefined when there is none. Iterative depth-first search: a hostile
 * input may chain thousands of edges, more than the stack holds frames.
 */
export function firstLoop<K>(starts: Iterable<K>, next: (node: K) => readonly K[]): K | undefined {
  const state = new Map<K, "visiting" | "done">();
  for (const start of starts) {
    if (state.has(start)) continue;
    const stack: { node: K; next: readonly K[]; i: number }[] = [{ node: start, next: next(start), i: 0 }];
    state.set(start, "visiting");
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      if (top.i >= top.next.length) {
        state.set(top.node, "done");
        stack.pop();
        continue;
      }
      const node = top.next[top.i++]!;
      const s = state.get(node);
      if (s === "visiting") return node;
      if (s === "done") continue;
      state.set(node, "visiting");
      stack.push({ node, next: next(node), i: 0 });
    }
  }
  return undefined;
}

/**
 * A node from which more than `budget` paths of `next` edges start (itself
 * counted as one), or undefined when there is none. Shared nodes are counted
 * once each (memoised), so a graph whose paths double at every step costs
 * its size to measure, not its paths. Only for a graph without loops
 * (firstLoop found none): a loop has no count.
 */
export function firstOverBudget<K>(
  starts: Iterable<K>,
  next: (node: K) => readonly K[],
  budget: number,
): K | undefined {
  const paths = new Map<K, number>();
  for (const start of starts) {
    if (paths.has(start)) continue;
    const stack: { node: K; next: readonly K[]; i: number; total: number }[] = [
      { node: start, next: next(start), i: 0, total: 1 },
    ];
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      if (top.i < top.next.length) {
        const node = top.next[top.i++]!;
        const known = paths.get(node);
        if (known === undefined) {
          stack.push({ node, next: next(node), i: 0, total: 1 });
          continue;
        }
        top.total += known;
        if (top.total > budget) return top.node;
        continue;
      }
      paths.set(top.node, top.total);
      stack.pop();
      const parent = stack[stack.length - 1];
      if (parent === undefined) continue;
      parent.total += top.total;
      if (parent.total > budget) return parent.node;
    }
  }
  return undefined;
}
