// One registry for optional reactions: a domain declares a hook and runs it at the moment it names; the
// composition (src/reactions.ts) subscribes the reactions, once per process, so the domain never imports
// who reacts. Hooks are for what may or may not happen (e-mails, notices, pushes, webhooks); what a use
// case promises is a step of its flow (src/flows/), never a hook.

/** Named reactions of any shape (subscribing a name again replaces its reaction), in the order subscribed. */
export class Reactions<R> {
  readonly #byName = new Map<string, R>();

  on(name: string, reaction: R): void {
    this.#byName.set(name, reaction);
  }

  get all(): R[] {
    return [...this.#byName.values()];
  }
}

/** A hook whose reactions are functions of the same arguments, run one after another. */
export class Hook<Args extends unknown[]> extends Reactions<(...args: Args) => Promise<void>> {
  async run(...args: Args): Promise<void> {
    for (const reaction of this.all) await reaction(...args);
  }
}

let wired = false;

/** Said once the composition subscribed every reaction (src/reactions.ts's wireReactions). */
export function markReactionsWired(): void {
  wired = true;
}

/**
 * Refuses to build an app in a process whose reactions were never wired: without them a booking would send
 * no e-mail and push no marketplace, silently. The command line, the tests' helper and the scripts wire them first.
 */
export function requireReactionsWired(): void {
  if (!wired) throw new Error('The reactions are not wired: call wireReactions() (src/reactions.ts) before buildApp()');
}
