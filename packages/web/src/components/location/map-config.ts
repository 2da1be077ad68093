import { configStore } from '../../stores/config';
import type { LatLng } from './geo';

/** The map services the location picker and viewer use (docs/design.md: server config). */
export interface MapServices {
  /** Leaflet tile URL template; '' shows the map without tiles. */
  tileUrl: string;
  attribution: string;
  /** A Nominatim-compatible place search; '' leaves only the manual pin. */
  searchUrl: string;
}

/** What a server that does not configure map services gets: OpenStreetMap and its Nominatim. */
export const DEFAULT_MAP_SERVICES: MapServices = {
  tileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
  attribution: '© OpenStreetMap contributors',
  searchUrl: 'https://nominatim.openstreetmap.org/search',
};

/** Where the map opens when the device's position is unknown. */
export const DEFAULT_CENTER: LatLng = { latitude: 39.908_7, longitude: 116.397_5 };

/** The map services of getSystemInfo's `map` section, each falling back to the default. */
export function mapServices(): MapServices {
  const config = configStore.getState().config as { map?: Partial<MapServices> } | null;
  const map = config?.map ?? {};
  const pick = (k: keyof MapServices) => (typeof map[k] === 'string' ? map[k] : DEFAULT_MAP_SERVICES[k]);
  return { tileUrl: pick('tileUrl'), attribution: pick('attribution'), searchUrl: pick('searchUrl') };
}
