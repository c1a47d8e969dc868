import { BlockList, isIP } from "node:net";

/**
 * Addresses a subscription may not reach unless MEMSTREAM_EVENTS_ALLOW_PRIVATE: this host, private
 * networks, link-local (cloud metadata at 169.254.169.254), carrier-grade NAT, multicast, reserved.
 */
const PRIVATE = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  PRIVATE.addSubnet(net, bits, "ipv4");
for (const [net, bits] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
  ["64:ff9b::", 96],
] as const)
  PRIVATE.addSubnet(net, bits, "ipv6");

/** Whether an IP address (v4, v6, or v4-mapped v6) is one of those. */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return PRIVATE.check(mapped[1] as string, "ipv4");
  const family = isIP(address);
  if (family === 0) return true;
  return PRIVATE.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** A URL's host as an IP literal (brackets of v6 removed), or null for a name. */
export function literalHost(url: URL): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  return isIP(host) ? host : null;
}
