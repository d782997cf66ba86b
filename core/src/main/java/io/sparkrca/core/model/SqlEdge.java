package io.sparkrca.core.model;

/** An edge of a SQL plan graph, from a child node to its parent. */
public record SqlEdge(long fromId, long toId) {}
