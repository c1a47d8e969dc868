import { Socket } from "node:net";

/** What postgres-js passes its `socket` option: the parsed connection options. */
type SocketOptions = { host: string[]; port: number[]; path?: string | false };

/**
 * postgres-js's `socket` option: the TCP connection it would open itself, with Nagle's algorithm
 * off (TCP_NODELAY, as libpq sets it). postgres-js writes a COPY's last data and its CopyDone as
 * two writes; with Nagle on, the small one (and the COMMIT after it) waited for the ACK of the
 * data, which Linux delays by 40 ms, at every batch write's COMMIT whatever its size
 * (docs/adr/0009). The socket is returned while still connecting
 * (writes queue until connected, errors reach postgres-js's handler, `connect_timeout` runs);
 * several hosts are tried in turn on reconnects, as postgres-js does; a Unix socket path is
 * used as given (Nagle does not apply there).
 */
export function noDelaySocket(): (o: SocketOptions) => Socket {
  let next = 0;
  return (o) => {
    // Set before connecting; Node applies it once the handle exists.
    const socket = new Socket().setNoDelay(true);
    if (o.path) return socket.connect(o.path);
    const i = next++ % o.host.length;
    const host = o.host[i] as string;
    // postgres-js reads `socket.host` for TLS's server name when it opens its own.
    Object.assign(socket, { host, port: o.port[i] ?? o.port[0] });
    return socket.connect(o.port[i] ?? (o.port[0] as number), host);
  };
}
