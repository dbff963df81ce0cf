//! TLS served directly with rustls (`ARMORY_TLS_CERT`, `ARMORY_TLS_KEY`: PEM files), HTTP/2 and
//! HTTP/1.1 offered by ALPN. The certificate is re-read when either file changes (checked every
//! two seconds), so a renewed certificate is served without a restart; a pair that does not load
//! is logged and the previous one kept.

use std::path::PathBuf;
use std::sync::{Arc, RwLock};
use std::time::{Duration, SystemTime};

use tokio_rustls::TlsAcceptor;

pub use crate::config::TlsFiles;
use tokio_rustls::rustls::crypto::{CryptoProvider, aws_lc_rs};
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio_rustls::rustls::server::{ClientHello, ResolvesServerCert};
use tokio_rustls::rustls::sign::CertifiedKey;
use tokio_rustls::rustls::{ServerConfig, version};

/// Serves the current certificate, swapped whole when the files change.
#[derive(Debug)]
pub struct ReloadingCert {
    files: TlsFiles,
    current: RwLock<(Arc<CertifiedKey>, [Option<SystemTime>; 2])>,
}

fn provider() -> Arc<CryptoProvider> {
    Arc::new(aws_lc_rs::default_provider())
}

fn modified(files: &TlsFiles) -> [Option<SystemTime>; 2] {
    [&files.cert, &files.key].map(|path| std::fs::metadata(path).and_then(|m| m.modified()).ok())
}

fn load(files: &TlsFiles) -> Result<CertifiedKey, String> {
    let read = |path: &PathBuf| std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()));
    let cert_pem = read(&files.cert)?;
    let chain: Vec<CertificateDer<'static>> = CertificateDer::pem_slice_iter(&cert_pem)
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{}: {e}", files.cert.display()))?;
    if chain.is_empty() {
        return Err(format!("{} holds no certificate", files.cert.display()));
    }
    let key = PrivateKeyDer::from_pem_slice(&read(&files.key)?)
        .map_err(|e| format!("{}: {e}", files.key.display()))?;
    CertifiedKey::from_der(chain, key, &provider())
        .map_err(|e| format!("the certificate and key do not load: {e}"))
}

impl ReloadingCert {
    pub fn load(files: TlsFiles) -> Result<Arc<Self>, String> {
        let key = load(&files)?;
        let stamp = modified(&files);
        Ok(Arc::new(Self { files, current: RwLock::new((Arc::new(key), stamp)) }))
    }

    /// Re-read the files if they changed since the last load.
    pub fn refresh(&self) {
        let stamp = modified(&self.files);
        if self.current.read().expect("never poisoned").1 == stamp {
            return;
        }
        match load(&self.files) {
            Ok(key) => {
                *self.current.write().expect("never poisoned") = (Arc::new(key), stamp);
                tracing::info!("TLS certificate reloaded");
            }
            Err(e) => {
                tracing::error!(error = %e, "the changed TLS files do not load; keeping the previous certificate")
            }
        }
    }

    /// Watch the files until `stop`.
    pub async fn keep_fresh(self: Arc<Self>, stop: crate::shutdown::Shutdown) {
        loop {
            tokio::select! {
                _ = stop.triggered() => return,
                _ = tokio::time::sleep(Duration::from_secs(2)) => self.refresh(),
            }
        }
    }
}

impl ResolvesServerCert for ReloadingCert {
    fn resolve(&self, _: ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        Some(self.current.read().expect("never poisoned").0.clone())
    }
}

/// The acceptor for every connection: TLS 1.2 and 1.3, ALPN h2 then http/1.1.
pub fn acceptor(certificates: Arc<ReloadingCert>) -> Result<TlsAcceptor, String> {
    let mut config = ServerConfig::builder_with_provider(provider())
        .with_protocol_versions(&[&version::TLS13, &version::TLS12])
        .map_err(|e| e.to_string())?
        .with_no_client_auth()
        .with_cert_resolver(certificates);
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(TlsAcceptor::from(Arc::new(config)))
}
