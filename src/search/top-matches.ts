// The k best of a search's matches, as the ranking orders them: score descending, then bib
// ascending (ties by bib, so pages never overlap or skip).

/**
 * The places of the `k` best matches, best first: score descending, then bib ascending. A heap of
 * the k best so far, its worst at the root, so a search of a common word ranks its first page
 * without sorting every match.
 */
export function topMatches(bibs: readonly number[], scores: readonly number[], k: number): number[] {
  // a ranks below b.
  const worse = (a: number, b: number) => scores[a]! < scores[b]! || (scores[a] === scores[b] && bibs[a]! > bibs[b]!);
  const heap: number[] = [];
  const down = (from: number) => {
    for (let i = from; ;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let worst = i;
      if (l < heap.length && worse(heap[l]!, heap[worst]!)) worst = l;
      if (r < heap.length && worse(heap[r]!, heap[worst]!)) worst = r;
      if (worst === i) return;
      [heap[i], heap[worst]] = [heap[worst]!, heap[i]!];
      i = worst;
    }
  };
  for (let m = 0; m < bibs.length && k > 0; m++) {
    if (heap.length < k) {
      heap.push(m);
      for (let i = heap.length - 1; i > 0;) {
        const parent = (i - 1) >> 1;
        if (!worse(heap[i]!, heap[parent]!)) break;
        [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
        i = parent;
      }
    } else if (worse(heap[0]!, m)) {
      heap[0] = m;
      down(0);
    }
  }
  return heap.sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));
}
