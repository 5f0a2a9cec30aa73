// The heatmap's one quad: the whole viewport (the part of a matrix on screen), drawn as a
// triangle strip of four vertices made from gl_VertexID, so that no vertex buffer is needed.
#version 330 core

void main()
{
    vec2 corner = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
    gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
