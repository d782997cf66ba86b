package io.sparkrca.gcp.testing;

import io.grpc.HandlerRegistry;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerMethodDefinition;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A gRPC server on loopback that takes every call of every service (Dataproc, Cloud Logging, any
 * other) and never answers it: an endpoint that hangs, for proving that each client call ends at
 * its deadline. {@link #calls()} lists the full method names asked for.
 */
public final class StalledGrpc implements AutoCloseable {
  private static final MethodDescriptor.Marshaller<InputStream> RAW = new MethodDescriptor.Marshaller<>() {
    @Override
    public InputStream stream(InputStream value) {
      return value;
    }

    @Override
    public InputStream parse(InputStream stream) {
      try {
        return new ByteArrayInputStream(stream.readAllBytes());
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }
  };

  private final List<String> calls = new CopyOnWriteArrayList<>();
  private final Server server;

  public StalledGrpc() throws IOException {
    ServerCallHandler<InputStream, InputStream> never = (call, headers) -> {
      calls.add(call.getMethodDescriptor().getFullMethodName());
      call.request(1);
      return new ServerCall.Listener<>() {}; // takes the request, sends nothing, never closes
    };
    HandlerRegistry everything = new HandlerRegistry() {
      @Override
      public ServerMethodDefinition<?, ?> lookupMethod(String method, String authority) {
        MethodDescriptor<InputStream, InputStream> d = MethodDescriptor.newBuilder(RAW, RAW)
            .setType(MethodDescriptor.MethodType.UNARY).setFullMethodName(method).build();
        return ServerMethodDefinition.create(d, never);
      }
    };
    server = NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
        .fallbackHandlerRegistry(everything).build().start();
  }

  /** The endpoint, {@code 127.0.0.1:port}. */
  public String endpoint() {
    return "127.0.0.1:" + server.getPort();
  }

  /** The full names of the methods called so far, e.g. {@code google.cloud.dataproc.v1.BatchController/GetBatch}. */
  public List<String> calls() {
    return List.copyOf(calls);
  }

  @Override
  public void close() {
    server.shutdownNow();
  }
}
