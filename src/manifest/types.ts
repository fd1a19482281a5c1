/** A place in a source file; line and column count from 1. */
export interface Location {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/** One problem found in a manifest, with where it is and what to do. */
export interface Diagnostic extends Location {
  readonly severity: 'error' | 'warning';
  /** One line: what is wrong and what to do about it. */
  readonly message: string;
}

/**
 * A domain the manifest wants. `name` is the comparison key: lowercase ASCII (IDNs in
 * punycode), no trailing dot. `input` is what the manifest said, for messages.
 */
export interface DesiredDomain {
  readonly name: string;
  readonly input: string;
  readonly loc?: Location;
}

/**
 * A client the manifest wants. `username` already satisfies the rule (lowercase letter
 * first, then lowercase letters, digits, `-`, `_`); it is never rewritten. `plan` is a
 * hosting plan's name as written; absent means the panel's default resources.
 */
export interface DesiredClient {
  readonly username: string;
  readonly plan?: string;
  readonly email?: string;
  readonly domains: readonly DesiredDomain[];
  readonly loc?: Location;
  /** Where the `plan:` value stands, for an unknown plan's error. */
  readonly planLoc?: Location;
}

/** A valid manifest: usernames unique, each domain listed once in the whole file. */
export interface Desired {
  readonly file: string;
  readonly clients: readonly DesiredClient[];
}
