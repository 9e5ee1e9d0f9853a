/** Absolute URLs of things the host serves, built from the public base URL (docs/api.md, Configuration). */
export interface UrlBuilder {
  readonly publicUrl: string;
  audio(key: string): string;
  avatarModel(avatarId: string): string;
  avatarPreview(avatarId: string): string;
  /** A custom avatar's model or preview, by its blob key (`avf_….vrm`, `avf_….png`). */
  avatarFile(key: string): string;
}

export function createUrlBuilder(publicUrl: string): UrlBuilder {
  const base = publicUrl.replace(/\/+$/, '');
  return Object.freeze({
    publicUrl: base,
    audio: (key: string) => `${base}/v1/audio/${key}`,
    avatarModel: (id: string) => `${base}/assets/avatars/${id}.vrm`,
    avatarPreview: (id: string) => `${base}/assets/avatars/${id}.png`,
    avatarFile: (key: string) => `${base}/v1/avatar-files/${key}`,
  });
}
