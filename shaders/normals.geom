#version 330 core
// normals.geom — the viewer's normals view (V): each skinned vertex, drawn as a point through
// skinned.vert or skinned_dq.vert, becomes a short line from the skinned position along the
// skinned normal, so the lines show exactly the normals the lighting uses.
layout(points) in;
layout(line_strip, max_vertices = 2) out;

in vec3 scenePosition[];
in vec3 sceneNormal[];

uniform mat4 view;
uniform mat4 projection;
uniform float normalLength;      // scene units

void main()
{
    vec3 n = sceneNormal[0];
    if (dot(n, n) < 1e-20) return;            // a degenerate normal has no direction
    vec3 p = scenePosition[0];
    gl_Position = projection * view * vec4(p, 1.0);
    EmitVertex();
    gl_Position = projection * view * vec4(p + normalLength * normalize(n), 1.0);
    EmitVertex();
    EndPrimitive();
}
