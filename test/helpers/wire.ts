// Requests exactly as a published client puts them on the wire: its headers and body, nothing
// added but Host, through a real socket to a listening server.
import http from 'node:http';

export interface WireAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  json(): any;
}

export function wire(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string | Buffer,
): Promise<WireAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode!, headers: res.headers, body: text, json: () => JSON.parse(text) });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
