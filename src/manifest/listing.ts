/**
 * How ClientsBuilder (build.ts) remembers each domain name's first listing through a read: a
 * number a name rather than an object (issue 30, 7f), from which the domain and its client are
 * found again when a message needs them.
 */

/**
 * A domain name's first listing: the slot of its client (ClientsBuilder: its place in `clients`,
 * or an orphan's, below 0) and its place `at` in that client's domains. Packed in one number:
 * `slot * PER_CLIENT + at` (a small integer) for the first PER_CLIENT domains of a client, then
 * `-(slot * MANY + at) - 1` (a client with more domains than that: one listing a line of
 * 20 bytes or so); the pair when neither fits.
 */
export type Listing = number | { readonly slot: number; readonly at: number };

/** Places in a client's domains the small form holds. */
const PER_CLIENT = 1024;

/** Places in a client's domains the second form holds. */
const MANY = 2 ** 32;

/** The Listing of the domain at `at` in the domains of the client at `slot`. */
export function listingOf(slot: number, at: number): Listing {
  if (slot >= 0 && at < PER_CLIENT) return slot * PER_CLIENT + at;
  if (slot >= 0 && at < MANY && Number.isSafeInteger(slot * MANY + at + 1)) return -(slot * MANY + at) - 1;
  return { slot, at };
}

/** The slot of a Listing's client. */
export function slotOf(listing: Listing): number {
  if (typeof listing !== 'number') return listing.slot;
  return listing >= 0 ? Math.floor(listing / PER_CLIENT) : Math.floor((-listing - 1) / MANY);
}

/** A Listing's place in its client's domains. */
export function placeOfListing(listing: Listing): number {
  if (typeof listing !== 'number') return listing.at;
  return listing >= 0 ? listing % PER_CLIENT : (-listing - 1) % MANY;
}
