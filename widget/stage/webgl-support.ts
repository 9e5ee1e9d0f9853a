/** What the browser's WebGL can do, as far as the stage cares. */
export interface WebglSupport {
  /** A WebGL 2 context can be created (three.js needs WebGL 2). */
  readonly available: boolean;
  /** It renders on the CPU (SwiftShader, llvmpipe, …): keep pixels and multisampling down. */
  readonly software: boolean;
}

/**
 * Probes WebGL 2 with a throwaway context, released at once so it does not count against the
 * browser's context limit.
 */
export function probeWebgl(): WebglSupport {
  try {
    const canvas = document.createElement('canvas');
    const gl = canvas.getContext('webgl2', { failIfMajorPerformanceCaveat: false });
    if (!gl) return { available: false, software: false };
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const renderer = String(info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER));
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return { available: true, software: /swiftshader|llvmpipe|softpipe|software|basic render/i.test(renderer) };
  } catch {
    return { available: false, software: false };
  }
}
