package io.sparkrca.core.io;

import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.error.IoErrors;
import io.sparkrca.core.error.InvalidRequestException;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * TLS trust for HTTP sources: the platform's trust store, plus optional extra CA certificates (a
 * corporate proxy's root, a private CA). The extra certificates are added to the system trust,
 * never substituted for it, and certificate and host-name verification are never turned off.
 */
final class TlsTrust {
  private TlsTrust() {}

  /** An SSL context trusting the system CAs and every certificate in the PEM files. */
  static SSLContext withExtraCas(List<Path> pemFiles) {
    try {
      SSLContext ctx = SSLContext.getInstance("TLS");
      ctx.init(null, new TrustManager[] {trustManager(pemFiles)}, null);
      return ctx;
    } catch (GeneralSecurityException e) {
      throw new InvalidRequestException("Cannot set up TLS trust: " + e.getMessage(), e);
    }
  }

  /** The system trust manager, or a composite of it and one for the extra CA certificates. */
  static X509ExtendedTrustManager trustManager(List<Path> pemFiles) {
    try {
      X509ExtendedTrustManager system = trustManager((KeyStore) null);
      if (pemFiles.isEmpty()) {
        return system;
      }
      KeyStore extra = KeyStore.getInstance(KeyStore.getDefaultType());
      extra.load(null, null);
      int n = 0;
      for (Path pem : pemFiles) {
        for (Certificate c : readCertificates(pem)) {
          extra.setCertificateEntry("sparkrca-extra-" + n++, c);
        }
      }
      return new Composite(system, trustManager(extra));
    } catch (GeneralSecurityException | IOException e) {
      throw new InvalidRequestException("Cannot set up TLS trust: " + e.getMessage(), e);
    }
  }

  static Collection<? extends Certificate> readCertificates(Path pem) {
    Collection<? extends Certificate> certs;
    try (InputStream in = Files.newInputStream(pem)) {
      certs = CertificateFactory.getInstance("X.509").generateCertificates(in);
    } catch (NoSuchFileException e) {
      throw new InputNotFoundException(pem.toString(), "check the path of the CA certificate file");
    } catch (CertificateException e) {
      throw new InvalidRequestException(
          pem + " is not a PEM or DER certificate file (" + e.getMessage() + "); pass the CA "
              + "certificate(s) in PEM form (-----BEGIN CERTIFICATE-----)", e);
    } catch (IOException e) {
      throw IoErrors.translate("the CA certificate file " + pem, e);
    }
    if (certs.isEmpty()) {
      throw new InvalidRequestException(
          pem + " holds no certificate; pass a file with -----BEGIN CERTIFICATE----- blocks");
    }
    return certs;
  }

  private static X509ExtendedTrustManager trustManager(KeyStore store)
      throws GeneralSecurityException {
    TrustManagerFactory f = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    f.init(store);
    for (TrustManager tm : f.getTrustManagers()) {
      if (tm instanceof X509ExtendedTrustManager x) {
        return x;
      }
    }
    throw new GeneralSecurityException("no X.509 trust manager available");
  }

  /**
   * Trusts a chain when the system trust does, or else when the extra CAs do. Both delegates are
   * JSSE's own extended trust managers, so host-name verification happens in either case.
   */
  static final class Composite extends X509ExtendedTrustManager {
    private final X509ExtendedTrustManager system;
    private final X509ExtendedTrustManager extra;

    Composite(X509ExtendedTrustManager system, X509ExtendedTrustManager extra) {
      this.system = system;
      this.extra = extra;
    }

    private interface Check {
      void run(X509ExtendedTrustManager tm) throws CertificateException;
    }

    private void either(Check check) throws CertificateException {
      try {
        check.run(system);
      } catch (CertificateException first) {
        try {
          check.run(extra);
        } catch (CertificateException second) {
          first.addSuppressed(second);
          throw first;
        }
      }
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
        throws CertificateException {
      either(tm -> tm.checkServerTrusted(chain, authType, engine));
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
        throws CertificateException {
      either(tm -> tm.checkServerTrusted(chain, authType, socket));
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType)
        throws CertificateException {
      either(tm -> tm.checkServerTrusted(chain, authType));
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
        throws CertificateException {
      either(tm -> tm.checkClientTrusted(chain, authType, engine));
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
        throws CertificateException {
      either(tm -> tm.checkClientTrusted(chain, authType, socket));
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType)
        throws CertificateException {
      either(tm -> tm.checkClientTrusted(chain, authType));
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      List<X509Certificate> all = new ArrayList<>(Arrays.asList(system.getAcceptedIssuers()));
      all.addAll(Arrays.asList(extra.getAcceptedIssuers()));
      return all.toArray(new X509Certificate[0]);
    }
  }
}
