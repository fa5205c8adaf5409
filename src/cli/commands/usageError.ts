/** A command line the `council` command cannot run: the dispatcher prints it with the usage text (exit code 2). */
export class UsageError extends Error {}
