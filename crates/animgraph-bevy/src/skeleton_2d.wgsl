// animgraph's 2D characters: the page's texel times the vertex colour, in premultiplied alpha
// (the pipeline blends with PREMULTIPLIED_ALPHA_BLENDING). The vertex colour is already
// premultiplied (linear tint x opacity); its alpha is 0 for additive slots, so they add light
// and cover nothing.
#import bevy_sprite::mesh2d_vertex_output::VertexOutput

@group(#{MATERIAL_BIND_GROUP}) @binding(0) var page: texture_2d<f32>;
@group(#{MATERIAL_BIND_GROUP}) @binding(1) var page_sampler: sampler;
@group(#{MATERIAL_BIND_GROUP}) @binding(2) var<uniform> premultiplied: u32;

@fragment
fn fragment(mesh: VertexOutput) -> @location(0) vec4<f32> {
    let texel = textureSample(page, page_sampler, mesh.uv);
    var rgb = texel.rgb;
    if premultiplied == 0u {
        rgb = rgb * texel.a;
    }
#ifdef VERTEX_COLORS
    let tint = mesh.color;
#else
    let tint = vec4<f32>(1.0);
#endif
    return vec4<f32>(rgb * tint.rgb, texel.a * tint.a);
}
