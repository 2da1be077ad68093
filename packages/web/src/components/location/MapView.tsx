import { LOCATION } from '@sparrow/protocol';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { forwardRef, useEffect, useImperativeHandle, useRef, type Ref } from 'react';
import type { LatLng } from './geo';
import type { MapServices } from './map-config';
import { PIN_SVG } from './Pin';
import './location.css';

export interface MapHandle {
  /** Moves the map to a point (at the default zoom unless one is given). */
  moveTo(point: LatLng, zoom?: number): void;
  center(): LatLng;
}

interface Props {
  services: MapServices;
  initial: LatLng;
  /** A pin at a fixed point (the viewer); the picker draws its own pin at the centre instead. */
  pin?: LatLng;
  /** The device's position, shown as a blue dot. */
  me?: LatLng | null;
  /** The person moved the map (drag, zoom, tap): its new centre. */
  onMoved?: (center: LatLng) => void;
  /** Tiles could not be loaded: the map still works, on a plain background. */
  onTilesFailed?: () => void;
  label: string;
}

const toLeaflet = (p: LatLng): L.LatLngExpression => [p.latitude, p.longitude];
const fromLeaflet = (p: L.LatLng): LatLng => ({ latitude: p.lat, longitude: p.lng });

/** A Leaflet map (docs/design.md): zoom 5–18, 16 to start (docs/product.md §9); tiles from the server's map config. */
export const MapView = forwardRef(function MapView(
  { services, initial, pin, me, onMoved, onTilesFailed, label }: Props,
  ref: Ref<MapHandle>,
) {
  const box = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const meDot = useRef<L.CircleMarker | null>(null);
  const callbacks = useRef({ onMoved, onTilesFailed });
  useEffect(() => {
    callbacks.current = { onMoved, onTilesFailed };
  });
  const start = useRef({ initial, pin, services });
  /** Set while the map moves because of moveTo(), so only the person's moves are reported. */
  const programmatic = useRef(false);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const { initial: at, pin: fixed, services: svc } = start.current;
    const m = L.map(el, {
      center: toLeaflet(at),
      zoom: LOCATION.defaultZoom,
      minZoom: LOCATION.minZoom,
      maxZoom: LOCATION.maxZoom,
      // At the bottom, clear of the close button and the search field at the top.
      zoomControl: false,
      attributionControl: Boolean(svc.tileUrl && svc.attribution),
    });
    L.control.zoom({ position: 'bottomleft' }).addTo(m);
    m.attributionControl?.setPrefix(false);
    if (svc.tileUrl) {
      let reported = false;
      L.tileLayer(svc.tileUrl, {
        minZoom: LOCATION.minZoom,
        maxZoom: LOCATION.maxZoom,
        attribution: svc.attribution,
        crossOrigin: false,
      })
        .on('tileerror', () => {
          if (reported) return;
          reported = true;
          callbacks.current.onTilesFailed?.();
        })
        .addTo(m);
    } else {
      callbacks.current.onTilesFailed?.();
    }
    if (fixed) {
      L.marker(toLeaflet(fixed), {
        icon: L.divIcon({ className: 'map-pin', html: PIN_SVG, iconSize: [32, 42], iconAnchor: [16, 41] }),
        keyboard: false,
        interactive: false,
      }).addTo(m);
    }
    m.on('moveend', () => {
      if (programmatic.current) {
        programmatic.current = false;
        return;
      }
      callbacks.current.onMoved?.(fromLeaflet(m.getCenter()));
    });
    // A tap puts the point under the finger in the middle, under the picker's pin.
    m.on('click', (e: L.LeafletMouseEvent) => m.panTo(e.latlng));
    map.current = m;
    // The box gets its size after the first layout (sheets slide in).
    const observer = new ResizeObserver(() => m.invalidateSize());
    observer.observe(el);
    return () => {
      observer.disconnect();
      m.remove();
      map.current = null;
      meDot.current = null;
    };
  }, []);

  useEffect(() => {
    const m = map.current;
    if (!m) return;
    if (!me) {
      meDot.current?.remove();
      meDot.current = null;
      return;
    }
    if (meDot.current) {
      meDot.current.setLatLng(toLeaflet(me));
    } else {
      meDot.current = L.circleMarker(toLeaflet(me), {
        radius: 7,
        color: '#fff',
        weight: 3,
        fillColor: '#2b7de9',
        fillOpacity: 1,
        interactive: false,
      }).addTo(m);
    }
  }, [me]);

  useImperativeHandle(ref, () => ({
    moveTo: (point, zoom) => {
      const m = map.current;
      if (!m) return;
      const z = zoom ?? Math.max(m.getZoom(), LOCATION.defaultZoom);
      const c = m.getCenter();
      if (c.lat === point.latitude && c.lng === point.longitude && m.getZoom() === z) return;
      programmatic.current = true;
      m.setView(toLeaflet(point), z, { animate: false });
    },
    center: () => {
      const m = map.current;
      return m ? fromLeaflet(m.getCenter()) : start.current.initial;
    },
  }));

  return <div ref={box} className="map-view" role="region" aria-label={label} />;
});
