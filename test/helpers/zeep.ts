// A SOAP client nobody wrote for Carrel: Debian's python3-zeep (at /usr/bin/python3: the python3 on
// PATH may be another without it), run as a child process with a small script against a server's
// WSDL, as test/helpers/ftp.ts runs Python's ftplib.
import { runPython } from './python.ts';

/** Debian's Python, where python3-zeep is installed (.ci/run installs it). */
export const ZEEP_PYTHON = '/usr/bin/python3';

/**
 * What every script starts with: `A`, the arguments; `client(auth=…)`, a zeep Client on A['wsdl']
 * authenticated as A['auth'] says ('wsse': a UsernameToken, 'basic': HTTP Basic, 'bearer': a
 * bearer token, 'none'); `service(c)`, its proxy bound to A['port'] (the SOAP 1.1 or 1.2 port);
 * `call(proxy, name, **args)`, an operation's answer as {"ok": value} or {"fault": {...}}, the
 * fault's detail (CarrelError) with its numbers as numbers; `out(**kw)`, a JSON line.
 */
const PREAMBLE = `
import json, sys, requests, zeep
from zeep.helpers import serialize_object
from zeep.transports import Transport
from zeep.wsse.username import UsernameToken
A = json.loads(sys.argv[1])
def client(auth=None, key=None, secret=None, wsdl=None):
    auth = auth or A['auth']
    key = A['key'] if key is None else key
    secret = A['secret'] if secret is None else secret
    session = requests.Session()
    wsse = None
    if auth == 'wsse':
        wsse = UsernameToken(key, secret)
    elif auth == 'basic':
        session.auth = (key, secret)
    elif auth == 'bearer':
        session.headers['Authorization'] = 'Bearer ' + A['token']
    return zeep.Client(wsdl or A['wsdl'], wsse=wsse, transport=Transport(session=session, timeout=20))
def service(c, port=None):
    names = list(c.wsdl.services.keys())
    return c.bind(names[0], port or A['port'])
NUMBERS = ('code', 'specificCode', 'httpStatus')
def call(proxy, name, **args):
    try:
        return {'ok': json.loads(json.dumps(serialize_object(getattr(proxy, name)(**args)), default=str))}
    except zeep.exceptions.Fault as f:
        detail = {}
        if f.detail is not None:
            for error in f.detail:
                for member in error:
                    tag = member.tag.split('}')[-1]
                    detail[tag] = int(member.text) if tag in NUMBERS else member.text
        return {'fault': {'message': f.message, 'code': f.code, 'detail': detail}}
def out(**kw):
    print(json.dumps(kw, default=str), flush=True)
`;

export interface ZeepOptions {
  /** The WSDL's URL (http://127.0.0.1:PORT/soap/patrons?wsdl). */
  wsdl: string;
  auth?: 'wsse' | 'basic' | 'bearer' | 'none';
  key?: string;
  secret?: string;
  /** For auth 'bearer': the token (without "Bearer "). */
  token?: string;
  /** The WSDL port service() binds: the service's name and Soap11 (default) or Soap12. */
  port?: string;
  /** Anything else the script reads from A. */
  args?: Record<string, unknown>;
}

export interface ZeepRun {
  code: number;
  stderr: string;
  /** Each JSON line the script printed with out(). */
  lines: Record<string, any>[];
}

/** Runs `body` (Python, after the preamble); never throws on the script's failure. */
export function zeep(o: ZeepOptions, body: string): Promise<ZeepRun> {
  const name = /\/soap\/([^/?]+)/.exec(o.wsdl)?.[1] ?? '';
  const { args: more, ...given } = o;
  const args = JSON.stringify({ auth: 'wsse', port: `${name}Soap11`, key: '', secret: '', token: '', ...given, ...more });
  return runPython(ZEEP_PYTHON, `${PREAMBLE}\n${body}`, args, 120_000);
}

/** The one line a script printed, or fails with its standard error. */
export function only(run: ZeepRun): Record<string, any> {
  if (run.code !== 0 || run.lines.length !== 1) throw new Error(`zeep script: exit ${run.code}, ${run.lines.length} lines\n${run.stderr}`);
  return run.lines[0]!;
}
