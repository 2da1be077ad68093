import { EnvironmentOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { tileOf, tileUrl, type LatLng } from './geo';
import { mapServices } from './map-config';
import './location.css';

const TILE = 256;
const ZOOM = 16;

/**
 * A small map around a point, drawn from the tiles that cover it (no map library): the location
 * bubble's picture. Without reachable tiles it is a plain grid with the pin.
 */
export function StaticMap({ point, width, height }: { point: LatLng; width: number; height: number }) {
  const template = mapServices().tileUrl;
  const [failed, setFailed] = useState(false);
  const { x, y, px, py } = tileOf(point, ZOOM);
  const n = 2 ** ZOOM;
  const tiles: Array<{ key: string; src: string; left: number; top: number }> = [];
  if (template && !failed) {
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const left = Math.round(width / 2 - px + dx * TILE);
        const top = Math.round(height / 2 - py + dy * TILE);
        if (left >= width || top >= height || left + TILE <= 0 || top + TILE <= 0) continue;
        const tx = (x + dx + n) % n;
        const ty = y + dy;
        if (ty < 0 || ty >= n) continue;
        tiles.push({ key: `${dx}:${dy}`, src: tileUrl(template, ZOOM, tx, ty), left, top });
      }
    }
  }
  return (
    <span className="static-map" style={{ width, height }} aria-hidden="true">
      {tiles.map((tile) => (
        <img
          key={tile.key}
          className="static-map-tile"
          src={tile.src}
          alt=""
          loading="lazy"
          draggable={false}
          style={{ left: tile.left, top: tile.top }}
          onError={() => setFailed(true)}
        />
      ))}
      <EnvironmentOutline className="static-map-pin" />
    </span>
  );
}
