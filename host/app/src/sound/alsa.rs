//! Sound on Linux through ALSA's `libasound.so.2`, opened when the chime is first played
//! rather than linked at build time: building then needs no ALSA headers or pkg-config (the
//! way winit opens Wayland and xkbcommon), and a machine without the library or without a
//! sound card simply stays silent. Only the six calls of ALSA's "simple" PCM interface are
//! used, on its default device, which desktop sound servers (PipeWire, PulseAudio) take over.

use std::ffi::{c_char, c_int, c_long, c_uint, c_ulong, c_void, CStr, CString};

use super::SoundError;

/// The library's name as every distribution ships it (the runtime package, not `-dev`).
const LIBRARY: &str = "libasound.so.2";

// Values of ALSA's enums (alsa/pcm.h), stable since ALSA 1.0.
const STREAM_PLAYBACK: c_int = 0;
const ACCESS_RW_INTERLEAVED: c_int = 3;
const FORMAT_S16_LE: c_int = 2;
/// How far ahead ALSA may buffer, in microseconds: short enough for the chime to come on time.
const LATENCY_US: c_uint = 100_000;

/// An opaque `snd_pcm_t`.
type Pcm = c_void;

type Open = unsafe extern "C" fn(*mut *mut Pcm, *const c_char, c_int, c_int) -> c_int;
type SetParams =
    unsafe extern "C" fn(*mut Pcm, c_int, c_int, c_uint, c_uint, c_int, c_uint) -> c_int;
type WriteInterleaved = unsafe extern "C" fn(*mut Pcm, *const c_void, c_ulong) -> c_long;
type Recover = unsafe extern "C" fn(*mut Pcm, c_int, c_int) -> c_int;
type Drain = unsafe extern "C" fn(*mut Pcm) -> c_int;
type Close = unsafe extern "C" fn(*mut Pcm) -> c_int;
type StrError = unsafe extern "C" fn(c_int) -> *const c_char;

/// The calls this module makes, resolved from the loaded library (which they must not
/// outlive: they are only used while `_library` is held).
struct Alsa {
    open: Open,
    set_params: SetParams,
    write: WriteInterleaved,
    recover: Recover,
    drain: Drain,
    close: Close,
    strerror: StrError,
    _library: libloading::Library,
}

impl Alsa {
    fn load() -> Result<Self, SoundError> {
        // SAFETY: loading libasound runs only its own initialisers, and each symbol below is
        // given the signature alsa/pcm.h declares for it.
        unsafe {
            let library = libloading::Library::new(LIBRARY).map_err(no_library)?;
            Ok(Self {
                open: symbol(&library, b"snd_pcm_open\0")?,
                set_params: symbol(&library, b"snd_pcm_set_params\0")?,
                write: symbol(&library, b"snd_pcm_writei\0")?,
                recover: symbol(&library, b"snd_pcm_recover\0")?,
                drain: symbol(&library, b"snd_pcm_drain\0")?,
                close: symbol(&library, b"snd_pcm_close\0")?,
                strerror: symbol(&library, b"snd_strerror\0")?,
                _library: library,
            })
        }
    }

    fn describe(&self, code: c_int) -> String {
        // SAFETY: snd_strerror returns a static, NUL-terminated string for any code.
        let text = unsafe { (self.strerror)(code) };
        if text.is_null() {
            return format!("error {code}");
        }
        // SAFETY: checked non-null above; ALSA's messages are static.
        unsafe { CStr::from_ptr(text) }
            .to_string_lossy()
            .into_owned()
    }
}

fn no_library(error: libloading::Error) -> SoundError {
    SoundError::NoLibrary {
        library: LIBRARY,
        reason: error.to_string(),
    }
}

/// The function `name` of the library, as a `T`.
///
/// # Safety
/// `T` must be the function's signature as ALSA declares it, and it must not be called once
/// `library` is dropped.
unsafe fn symbol<T: Copy>(library: &libloading::Library, name: &[u8]) -> Result<T, SoundError> {
    // SAFETY: the caller gives the declared signature.
    unsafe { library.get::<T>(name).map(|f| *f).map_err(no_library) }
}

/// How many times a write that failed (an underrun, a suspended device) is recovered and
/// tried again before the chime gives up: a device that never takes frames cannot hold the
/// sound thread forever.
const WRITE_RETRIES: u32 = 8;

/// An open playback device, closed when dropped.
struct Device<'a> {
    alsa: &'a Alsa,
    pcm: *mut Pcm,
}

impl Drop for Device<'_> {
    fn drop(&mut self) {
        // SAFETY: `pcm` came from a successful snd_pcm_open and is closed once, here.
        unsafe { (self.alsa.close)(self.pcm) };
    }
}

/// Plays mono samples (−1…1) at `rate` on ALSA's `device` ("default" for the speakers) and
/// returns once they have been heard.
pub fn play(device: &str, samples: &[f32], rate: u32) -> Result<(), SoundError> {
    let alsa = Alsa::load()?;
    let name = CString::new(device).map_err(|_| SoundError::Device {
        device: device.to_string(),
        reason: "the name holds a NUL byte".into(),
    })?;
    let failed = |code: c_int| SoundError::Device {
        device: device.to_string(),
        reason: alsa.describe(code),
    };
    let mut pcm = std::ptr::null_mut();
    // SAFETY: `pcm` is a valid out-pointer and `name` a NUL-terminated string.
    let code = unsafe { (alsa.open)(&mut pcm, name.as_ptr(), STREAM_PLAYBACK, 0) };
    if code < 0 {
        return Err(failed(code));
    }
    let device_handle = Device { alsa: &alsa, pcm };
    // SAFETY: `pcm` is open; the values are ALSA's enums; resampling is allowed (1).
    let code = unsafe {
        (alsa.set_params)(
            pcm,
            FORMAT_S16_LE,
            ACCESS_RW_INTERLEAVED,
            1,
            rate,
            1,
            LATENCY_US,
        )
    };
    if code < 0 {
        return Err(failed(code));
    }
    let frames = to_s16(samples);
    let mut written = 0;
    let mut retries = 0;
    while written < frames.len() {
        let rest = &frames[written..];
        // SAFETY: `rest` is a live buffer of `rest.len()` mono 16-bit frames.
        let count = unsafe { (alsa.write)(pcm, rest.as_ptr().cast(), rest.len() as c_ulong) };
        if count <= 0 {
            retries += 1;
            if retries > WRITE_RETRIES {
                return Err(failed(count.min(-1) as c_int));
            }
            // An underrun or a suspended device: ALSA's own recovery, then try again.
            // SAFETY: `pcm` is open; `count` is the error snd_pcm_writei returned.
            let code = unsafe { (alsa.recover)(pcm, count as c_int, 1) };
            if code < 0 {
                return Err(failed(code));
            }
            continue;
        }
        written += count as usize;
    }
    // SAFETY: `pcm` is open; draining waits until the last frame has been played.
    unsafe { (alsa.drain)(pcm) };
    drop(device_handle);
    Ok(())
}

/// The samples as ALSA's most widely accepted format, signed 16-bit.
fn to_s16(samples: &[f32]) -> Vec<i16> {
    samples
        .iter()
        .map(|s| (s.clamp(-1.0, 1.0) * f32::from(i16::MAX)) as i16)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether this machine has ALSA's library; without it the test says it did not run
    /// unless `VEILLEE_SOUND_TESTS=required` (CI, which installs `libasound2`).
    fn alsa_or_say_why(test: &str) -> bool {
        match Alsa::load() {
            Ok(_) => true,
            Err(error) => {
                let required = std::env::var("VEILLEE_SOUND_TESTS").is_ok_and(|v| v == "required");
                assert!(!required, "VEILLEE_SOUND_TESTS=required but {error}");
                eprintln!("\n!!!! {test}: NOT RUN — {error} (Debian: `libasound2`). !!!!\n");
                false
            }
        }
    }

    #[test]
    fn the_chime_plays_through_the_real_alsa_library_to_its_null_device() {
        if !alsa_or_say_why("the_chime_plays_through_the_real_alsa_library_to_its_null_device") {
            return;
        }
        // ALSA's "null" device takes every frame at the given rate, with no sound card.
        play("null", &super::super::chime(), super::super::RATE as u32)
            .expect("the null device plays the chime");
    }

    #[test]
    fn a_device_that_does_not_exist_is_an_error_that_names_it() {
        if !alsa_or_say_why("a_device_that_does_not_exist_is_an_error_that_names_it") {
            return;
        }
        let error = play("veillee-no-such-device", &[0.0; 10], 44_100).unwrap_err();
        let text = error.to_string();
        assert!(text.contains("veillee-no-such-device"), "{text}");
    }

    #[test]
    fn samples_become_sixteen_bit_frames_without_wrapping() {
        assert_eq!(
            to_s16(&[0.0, 1.0, -1.0, 2.0, -3.0]),
            [0, 32767, -32767, 32767, -32767]
        );
    }
}
