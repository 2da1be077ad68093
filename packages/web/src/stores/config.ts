import type { GlobalConfig } from '@sparrow/protocol';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { SocketState } from '../api/socket';
import { storage } from '../lib/storage';

export interface ConfigState {
  /** System configuration from getSystemInfo, updated by `updateConfig` pushes. */
  config: GlobalConfig | null;
  socket: SocketState;
  /** True when the same user has other live sockets (from the socket's pong). */
  multiport: boolean;
}

export const configStore = createStore<ConfigState>()(() => ({
  config: storage.get('globalConfig'),
  socket: 'idle',
  multiport: false,
}));

export function useConfig<T>(selector: (s: ConfigState) => T): T {
  return useStore(configStore, selector);
}

export const config = {
  set(next: GlobalConfig): void {
    storage.set('globalConfig', next);
    configStore.setState({ config: next });
  },
  /** `updateConfig` pushes may carry only some sections; merge them over what we hold. */
  merge(patch: Partial<GlobalConfig>): void {
    const current = configStore.getState().config;
    config.set({ ...(current ?? {}), ...patch } as GlobalConfig);
  },
  setSocket(socket: SocketState): void {
    configStore.setState({ socket });
  },
  setMultiport(multiport: boolean): void {
    configStore.setState({ multiport });
  },
};
