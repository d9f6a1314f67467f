/**
 * Notifications on their way through the proxy, bounded: one gate each way,
 * the upstream's to the client and the client's to the upstream. A side may
 * send log lines, progress or list changes as fast as it can write them;
 * forwarded as they come, the other side is flooded and the proxy's memory
 * grows with every notification not written yet. At most `perSecond`
 * pass in each second, and at most `perSecond` wait to be written at a time.
 * Past either, a notification is dropped, except a list change or a resource
 * update: those only say "read again", so the last of each kind (its method,
 * and the resource's uri) is held and sent once the rate allows.
 */
import type { Notification } from "@modelcontextprotocol/sdk/types.js";

/** A user reading logs or watching progress never needs more; a client is not flooded by that many. */
export const DEFAULT_MAX_NOTIFICATIONS_PER_SECOND = 100;

/** Kinds held at most while over the rate: beyond, an update of another resource is dropped too. */
const MAX_HELD = 64;

const WINDOW_MS = 1_000;

export const UPSTREAM_TO_CLIENT = { from: "the upstream", to: "its client" } as const;
export const CLIENT_TO_UPSTREAM = { from: "the client", to: "the upstream" } as const;

/** Writes one notification to the client; never rejects (the caller reports its own failures). */
export type NotificationSend = (notification: Notification) => Promise<void>;

export class NotificationGate {
  private windowStart = Number.NEGATIVE_INFINITY;
  private sent = 0;
  private unwritten = 0;
  private readonly held = new Map<string, { notification: Notification; send: NotificationSend }>();
  private timer: NodeJS.Timeout | undefined;
  private warned = false;
  private closed = false;

  constructor(
    private readonly perSecond: number,
    /** Called once, at the first notification not sent at once. */
    private readonly onOverflow: (line: string) => void,
    /** Who sends, and who reads, for that line: the upstream and its client, or the other way. */
    private readonly sides: { readonly from: string; readonly to: string },
  ) {}

  /** Send the notification now, hold it for the next second (a list change, a resource update), or drop it. */
  pass(notification: Notification, send: NotificationSend): void {
    if (this.closed) return;
    if (this.room()) {
      this.send(notification, send);
      return;
    }
    this.warn(notification.method);
    const key = heldKey(notification);
    if (key === undefined || (!this.held.has(key) && this.held.size >= MAX_HELD)) return;
    // The latest of its kind replaces the one held, and goes to the back of the queue.
    this.held.delete(key);
    this.held.set(key, { notification, send });
    this.timer ??= setTimeout(() => this.flush(), Math.max(0, this.windowStart + WINDOW_MS - performance.now()));
  }

  /** The session ended: nothing held is sent. */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.held.clear();
  }

  private room(): boolean {
    const now = performance.now();
    if (now - this.windowStart >= WINDOW_MS) {
      this.windowStart = now;
      this.sent = 0;
    }
    return this.sent < this.perSecond && this.unwritten < this.perSecond;
  }

  private send(notification: Notification, send: NotificationSend): void {
    this.sent++;
    this.unwritten++;
    void send(notification).finally(() => this.unwritten--);
  }

  private flush(): void {
    this.timer = undefined;
    for (const [key, { notification, send }] of this.held) {
      if (!this.room()) break;
      this.held.delete(key);
      this.send(notification, send);
    }
    // Still over (a client not reading): try again a window later.
    if (this.held.size > 0 && !this.closed) this.timer = setTimeout(() => this.flush(), WINDOW_MS);
  }

  private warn(method: string): void {
    if (this.warned) return;
    this.warned = true;
    this.onOverflow(
      `${this.sides.from} sends notifications faster than ${this.perSecond} a second, or faster than ${this.sides.to} reads them (first held back: ${method.slice(0, 80)}): past that rate they are dropped, list changes and resource updates held to the last of each`,
    );
  }
}

/** What a held notification replaces: one of its kind; undefined for one that is dropped (logs, progress, the rest). */
function heldKey(notification: Notification): string | undefined {
  const { method } = notification;
  if (method.endsWith("/list_changed")) return method;
  if (method === "notifications/resources/updated") {
    const uri = notification.params?.uri;
    return typeof uri === "string" ? `${method} ${uri}` : undefined;
  }
  return undefined;
}
