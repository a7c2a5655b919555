/**
 * The collections a state folds into in place (see decider.ts), and overlays over them for a fork: a state that can
 * be decided on and folded speculatively — a batch of commands, each seeing the previous ones' events — without
 * changing the state it was forked from. An overlay reads through to its base and keeps its own writes; forking
 * costs O(1), whatever the base's size.
 */
export interface GrowingSet<T> extends Iterable<T> {
  has(value: T): boolean;
  add(value: T): unknown;
}

export interface EditableMap<K, V> extends Iterable<[K, V]> {
  get(key: K): V | undefined;
  has(key: K): boolean;
  set(key: K, value: V): unknown;
  delete(key: K): boolean;
}

export class OverlaySet<T> implements GrowingSet<T> {
  private readonly added = new Set<T>();
  constructor(private readonly base: GrowingSet<T>) {}

  has(value: T): boolean {
    return this.added.has(value) || this.base.has(value);
  }

  add(value: T): this {
    if (!this.base.has(value)) this.added.add(value);
    return this;
  }

  *[Symbol.iterator](): Iterator<T> {
    yield* this.base;
    yield* this.added;
  }
}

export class OverlayMap<K, V> implements EditableMap<K, V> {
  private readonly changed = new Map<K, V>();
  private readonly removed = new Set<K>();
  constructor(private readonly base: EditableMap<K, V>) {}

  get(key: K): V | undefined {
    if (this.removed.has(key)) return undefined;
    return this.changed.has(key) ? this.changed.get(key) : this.base.get(key);
  }

  has(key: K): boolean {
    return !this.removed.has(key) && (this.changed.has(key) || this.base.has(key));
  }

  set(key: K, value: V): this {
    this.removed.delete(key);
    this.changed.set(key, value);
    return this;
  }

  delete(key: K): boolean {
    const had = this.has(key);
    this.changed.delete(key);
    this.removed.add(key);
    return had;
  }

  *[Symbol.iterator](): Iterator<[K, V]> {
    for (const [key, value] of this.base) {
      if (this.removed.has(key)) continue;
      yield this.changed.has(key) ? [key, this.changed.get(key)!] : [key, value];
    }
    for (const entry of this.changed) if (!this.base.has(entry[0])) yield entry;
  }
}
