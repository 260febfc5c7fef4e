// OpenSSH's sftp client (/usr/bin/sftp) run against the SFTP door: a batch of commands, logged in
// with a password (given through SSH_ASKPASS, with no terminal) or with a key file.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import type { SftpLimits } from '../../src/config.ts';
import { openSftpDoor, type SftpDoor } from '../../src/sftp/index.ts';
import type { TestApp } from './app.ts';

export interface SftpRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `commands` (sftp batch lines; a leading `-` lets the batch go on past a failed one) as
 * `user` against 127.0.0.1:port. The working folder of the client is `cwd`.
 */
export async function sftpBatch(
  port: number,
  user: string,
  login: { password: string } | { keyFile: string },
  commands: string[],
  cwd: string,
): Promise<SftpRun> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrel-sftp-client-'));
  try {
    const batch = path.join(dir, 'batch');
    fs.writeFileSync(batch, `${commands.join('\n')}\n`);
    const askpass = path.join(dir, 'askpass');
    fs.writeFileSync(askpass, '#!/bin/sh\nprintf "%s\\n" "$CARREL_TEST_SFTP_PASSWORD"\n', { mode: 0o700 });
    const auth =
      'password' in login
        ? ['-o', 'PreferredAuthentications=password', '-o', 'PubkeyAuthentication=no', '-o', 'NumberOfPasswordPrompts=1']
        : ['-o', 'PreferredAuthentications=publickey', '-o', 'IdentitiesOnly=yes', '-i', login.keyFile];
    const args = [
      '-w',
      'sftp',
      // Before -b, which asks for batch mode (no password prompts): ssh keeps an option's first value.
      '-o',
      'BatchMode=no',
      ...auth,
      '-o',
      'StrictHostKeyChecking=no',
      '-o',
      'UserKnownHostsFile=/dev/null',
      '-o',
      'LogLevel=ERROR',
      '-b',
      batch,
      '-P',
      String(port),
      `${user}@127.0.0.1`,
    ];
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: dir,
      SSH_ASKPASS: askpass,
      SSH_ASKPASS_REQUIRE: 'force',
      DISPLAY: ':0',
      CARREL_TEST_SFTP_PASSWORD: 'password' in login ? login.password : '',
    };
    return await new Promise<SftpRun>((resolve) => {
      execFile('setsid', args, { cwd, env, timeout: 60_000 }, (error, stdout, stderr) => {
        const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : 1) : 0;
        resolve({ code, stdout, stderr });
      });
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The SFTP door of a test app on a free port of 127.0.0.1, logging nothing. */
export function openTestDoor(t: TestApp, limits: Partial<SftpLimits>): Promise<SftpDoor> {
  return openSftpDoor({
    accounts: t.services.sftpAccounts,
    files: t.services.files,
    orders: t.services.ediTransport,
    host: '127.0.0.1',
    port: 0,
    log: pino({ level: 'silent' }),
    limits,
  });
}
