import type { DeliveryRecord } from './delivery-record';

/**
 * The delivery records that have ended (succeeded, failed, expired), in the order they ended, for
 * retention: forgetting the first of them costs O(1) amortised, however many records are still
 * pending in front of them in the order of creation. Scanning every record from the oldest on each
 * event (as retention did) walked the whole backlog of a receiver that hangs, each time: with
 * 196,291 pending records, creations fell from about 5,000 to 12 a second (docs/fidelity.md row 99).
 * The order is an array read from a moving head, compacted once the consumed front is most of it.
 */
export class EndedRecords {
  /** Taken slots hold undefined, so a forgotten record is not kept alive by the queue until the next compaction. */
  private order: Array<DeliveryRecord | undefined> = [];
  private head = 0;

  /** Records in the queue. */
  get size(): number {
    return this.order.length - this.head;
  }

  /** A record has just ended: it joins the back. */
  push(record: DeliveryRecord): void {
    this.order.push(record);
  }

  /** The record that ended first, taken out of the queue; undefined when none is left. */
  shift(): DeliveryRecord | undefined {
    if (this.head === this.order.length) return undefined;
    const record = this.order[this.head]!;
    this.order[this.head] = undefined;
    this.head += 1;
    if (this.head > 1_024 && this.head * 2 > this.order.length) {
      this.order = this.order.slice(this.head);
      this.head = 0;
    }
    return record;
  }

  /** The records in the queue, first ended first. */
  *list(): Generator<DeliveryRecord> {
    for (let index = this.head; index < this.order.length; index += 1) yield this.order[index]!;
  }

  clear(): void {
    this.order = [];
    this.head = 0;
  }
}
