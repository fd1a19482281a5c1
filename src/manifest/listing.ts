/**
 * How ClientsBuilder (build.ts) remembers each domain name's first listing through a read: a
 * small number a name rather than an object (issue 30, 7f), from which the domain and its client
 * are found again when a message needs them.
 */

/**
 * A domain name's first listing: the slot of its client (ClientsBuilder: its place in `clients`,
 * or an orphan's, below 0) and its place in that client's domains, as `slot * PER_CLIENT + at`
 * (a small integer) when both fit, else the pair.
 */
export type Listing = number | { readonly slot: number; readonly at: number };

/** Places in a client's domains a packed Listing holds. */
const PER_CLIENT = 1024;

/** The Listing of the domain at `at` in the domains of the client at `slot`. */
export function listingOf(slot: number, at: number): Listing {
  return slot >= 0 && at < PER_CLIENT ? slot * PER_CLIENT + at : { slot, at };
}

/** The slot of a Listing's client. */
export function slotOf(listing: Listing): number {
  return typeof listing === 'number' ? Math.floor(listing / PER_CLIENT) : listing.slot;
}

/** A Listing's place in its client's domains. */
export function placeOfListing(listing: Listing): number {
  return typeof listing === 'number' ? listing % PER_CLIENT : listing.at;
}
