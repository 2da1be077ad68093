import { LOCATION } from '@sparrow/protocol';
import { useEffect, useRef, useState } from 'react';
import type { LatLng } from './geo';

export type GeoStatus = 'unsupported' | 'locating' | 'located' | 'denied';

/**
 * The device's position, asked again every LOCATION.refreshMs (docs/product.md §9). A browser without
 * geolocation says so once ('device nonsupport geolocation', docs/product.md §8).
 */
export function useGeolocation(onUnsupported?: () => void): { position: LatLng | null; status: GeoStatus } {
  const supported = typeof navigator !== 'undefined' && 'geolocation' in navigator && Boolean(navigator.geolocation);
  const [position, setPosition] = useState<LatLng | null>(null);
  const [status, setStatus] = useState<GeoStatus>(supported ? 'locating' : 'unsupported');
  const notice = useRef(onUnsupported);

  useEffect(() => {
    if (!supported) {
      notice.current?.();
      return;
    }
    let live = true;
    const ask = () =>
      navigator.geolocation.getCurrentPosition(
        (p) => {
          if (!live) return;
          setPosition({ latitude: p.coords.latitude, longitude: p.coords.longitude });
          setStatus('located');
        },
        () => {
          if (live) setStatus((s) => (s === 'located' ? s : 'denied'));
        },
        { enableHighAccuracy: true, timeout: LOCATION.refreshMs / 2, maximumAge: LOCATION.refreshMs },
      );
    ask();
    const timer = setInterval(ask, LOCATION.refreshMs);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [supported]);

  return { position, status };
}
