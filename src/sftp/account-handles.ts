// Files and folders open per account, across all its connections to this process: a session's
// own cap alone would let an account open as many as it has connections.

/** Open at once per account, in all its sessions. */
export const MAX_ACCOUNT_HANDLES = 32;

export class AccountHandles {
  private readonly open = new Map<string, number>();

  /** Counts one more open for the account; false (nothing counted) when it has the most already. */
  take(account: string): boolean {
    const n = this.open.get(account) ?? 0;
    if (n >= MAX_ACCOUNT_HANDLES) return false;
    this.open.set(account, n + 1);
    return true;
  }

  give(account: string, count = 1): void {
    const n = (this.open.get(account) ?? 0) - count;
    if (n > 0) this.open.set(account, n);
    else this.open.delete(account);
  }
}
