/**
 * A map that also hands out its keys oldest first, cheaply at any size: a JS
 * `Map` iterated from its start walks over the holes its deletions left (until
 * it is rehashed), which made evicting the oldest of 100,000 entries cost a
 * scan of the whole table every time. Here the order is an array read from a
 * moving head. A key is expected to be set once (ids are never reused).
 */
export class InsertionOrder<V> {
  private readonly entries = new Map<string, V>();
  private order: string[] = [];
  private head = 0;

  get size(): number {
    return this.entries.size;
  }

  get(key: string): V | undefined {
    return this.entries.get(key);
  }

  set(key: string, value: V): void {
    if (!this.entries.has(key)) this.order.push(key);
    this.entries.set(key, value);
  }

  delete(key: string): boolean {
    return this.entries.delete(key);
  }

  /** The keys still present, oldest first. */
  *oldest(): IterableIterator<string> {
    this.skipDeleted();
    for (let index = this.head; index < this.order.length; index += 1) {
      const key = this.order[index]!;
      if (this.entries.has(key)) yield key;
    }
  }

  /** Removes the oldest entry and returns its key, or undefined when empty. */
  shift(): string | undefined {
    this.skipDeleted();
    if (this.head === this.order.length) return undefined;
    const key = this.order[this.head]!;
    this.head += 1;
    this.entries.delete(key);
    this.compact();
    return key;
  }

  clear(): void {
    this.entries.clear();
    this.order = [];
    this.head = 0;
  }

  private skipDeleted(): void {
    while (this.head < this.order.length && !this.entries.has(this.order[this.head]!)) this.head += 1;
    this.compact();
  }

  /** Drops the consumed front of the order once it is most of the array. */
  private compact(): void {
    if (this.head > 1_024 && this.head * 2 > this.order.length) {
      this.order = this.order.slice(this.head);
      this.head = 0;
    }
  }
}
