/** A point on the map, in degrees. */
export interface LatLng {
  latitude: number;
  longitude: number;
}

const EARTH_RADIUS_M = 6_371_008.8;
const rad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle distance in metres. */
export function distanceM(a: LatLng, b: LatLng): number {
  const dLat = rad(b.latitude - a.latitude);
  const dLon = rad(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The box `radiusM` around a point: [west, south, east, north], clamped to valid degrees. */
export function boundingBox(center: LatLng, radiusM: number): [number, number, number, number] {
  const dLat = (radiusM / EARTH_RADIUS_M) * (180 / Math.PI);
  const cos = Math.max(Math.cos(rad(center.latitude)), 1e-6);
  const dLon = Math.min(180, dLat / cos);
  return [
    Math.max(-180, center.longitude - dLon),
    Math.max(-90, center.latitude - dLat),
    Math.min(180, center.longitude + dLon),
    Math.min(90, center.latitude + dLat),
  ];
}

/** `850 m`, `1.2 km`. */
export function formatDistance(m: number): string {
  if (m < 1000) return `${Math.max(1, Math.round(m))} m`;
  return `${(m / 1000).toFixed(m < 10_000 ? 1 : 0)} km`;
}

/** The slippy-map tile holding a point at a zoom, and where in that 256-px tile the point is. */
export function tileOf(point: LatLng, zoom: number): { x: number; y: number; px: number; py: number } {
  const n = 2 ** zoom;
  const lat = Math.max(-85.0511, Math.min(85.0511, point.latitude));
  const fx = ((point.longitude + 180) / 360) * n;
  const fy = ((1 - Math.log(Math.tan(rad(lat)) + 1 / Math.cos(rad(lat))) / Math.PI) / 2) * n;
  const x = Math.min(n - 1, Math.floor(fx));
  const y = Math.min(n - 1, Math.floor(fy));
  return { x, y, px: (fx - x) * 256, py: (fy - y) * 256 };
}

/** A tile URL from a `{z}/{x}/{y}` template (`{s}` picks the first subdomain). */
export function tileUrl(template: string, z: number, x: number, y: number): string {
  return template
    .replace('{s}', 'a')
    .replace('{z}', String(z))
    .replace('{x}', String(x))
    .replace('{y}', String(y))
    .replace('{r}', '');
}

export function isLatLng(v: Partial<LatLng> | null | undefined): v is LatLng {
  return (
    typeof v?.latitude === 'number' &&
    typeof v.longitude === 'number' &&
    Number.isFinite(v.latitude) &&
    Number.isFinite(v.longitude) &&
    Math.abs(v.latitude) <= 90 &&
    Math.abs(v.longitude) <= 180
  );
}
