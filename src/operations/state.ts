// What this process knows about whether it should serve: shutting down, switched off by an
// operator (kept in the database, re-read every statePollMs), and whether the schema is migrated.
export class ServiceState {
  draining = false;
  maintenance = false;
  /** True once this process has seen the schema fully migrated. */
  schemaReady = false;
  /** An import is running (re-read with the switch): search indexing waits for it to end. */
  importing = false;

  /** Why the service is not running, or undefined when it is. */
  notRunningReason(): string | undefined {
    if (this.draining) return 'the service is shutting down';
    if (this.maintenance) return 'the service is switched off for maintenance';
    return undefined;
  }
}
