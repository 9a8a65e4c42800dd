#version 330 core
// normals.frag — one flat colour, written as is (the renderer leaves GL_FRAMEBUFFER_SRGB off).
uniform vec3 lineColor;
out vec4 fragColor;

void main()
{
    fragColor = vec4(lineColor, 1.0);
}
