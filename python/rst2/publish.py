"""One way to run docutils for every operation: reader, settings, safety."""

import contextlib
import copy
import io as _io
import os
import sys
import warnings

from docutils import core, io, utils
from docutils.readers import standalone

from . import base_url, directives, html_writer, speedups
from .errors import DocumentError
from .limits import BoundSubstitutions, bound_writer, check_nesting, check_output
from .safety import LinkEmbeddedImages, NeutralizeUnsafeLinks
from .settings import untrusted

directives.register()
speedups.install()


class SafeReader(standalone.Reader):
    """The standalone reader plus our substitution bound, link safety and optional observers.

    Observers are attached to the reporter as soon as the document exists, so
    they see messages from parsing and from every transform alike.
    """

    def __init__(self, observers=(), transforms=()):
        super().__init__(parser_name="restructuredtext")
        self._observers = list(observers)
        self._transforms = list(transforms)

    def get_transforms(self):
        return super().get_transforms() + [BoundSubstitutions] + self._transforms + [base_url.ResolveRelative, LinkEmbeddedImages, NeutralizeUnsafeLinks]

    def new_document(self):
        document = super().new_document()
        for observer in self._observers:
            document.reporter.attach_observer(observer)
        return document


# Building docutils' settings means building an OptionParser for every
# component: milliseconds per call.  The result depends only on the writer
# and the presentation settings, so it is made once and copied.
_settings_cache = {}


def _settings_for(publisher, writer_name, presentation):
    key = (writer_name, tuple(sorted((k, repr(v)) for k, v in presentation.items())))
    if key not in _settings_cache:
        defaults = untrusted(**presentation)
        del defaults["warning_stream"]
        _settings_cache[key] = publisher.get_settings(**defaults)
    settings = copy.deepcopy(_settings_cache[key])
    settings.warning_stream = _io.StringIO()
    return settings


def publish(source, writer_name, observers=(), dialect=None, base=None, **presentation):
    """Runs docutils once; returns (parts, doctree).

    ``dialect`` (rst2.dialects) adds roles, directives, transforms and
    settings; None is plain docutils. ``base`` is the URL a fetched document
    came from: relative links and images resolve against it (rst2.base_url).
    """
    check_nesting(source)
    publisher = core.Publisher(
        reader=SafeReader(observers, dialect.transforms if dialect else ()),
        # None: docutils' own writer of that name.
        writer=html_writer.Writer() if writer_name == "html5" else None,
        source_class=io.StringInput,
        destination_class=io.NullOutput if writer_name == "null" else io.StringOutput,
    )
    publisher.set_components(None, "restructuredtext", writer_name)
    if dialect is not None:
        dialect.prepare_writer(publisher.writer)
        presentation = dict(presentation, **dialect.settings(writer_name))
    # After the dialect, which may choose its own translator.
    bound_writer(publisher.writer)
    publisher.settings = _settings_for(publisher, writer_name, presentation)
    if dialect is not None:
        # Only github lifts one (raw, for a writer whose output it sanitizes).
        for name, value in dialect.lifted(writer_name).items():
            setattr(publisher.settings, name, value)
    setattr(publisher.settings, base_url.SETTING, base)
    # An untitled document gets this as its HTML <title> (docutils falls back
    # to the source name).
    publisher.set_source(source, "untitled")
    publisher.set_destination(None, None)
    with (
        warnings.catch_warnings(),
        (dialect.active() if dialect else contextlib.nullcontext()),
        (speedups.code_unhighlighted() if writer_name == "null" else contextlib.nullcontext()),
    ):
        # The LaTeX writer announces future changes through FutureWarning;
        # they are about docutils, not about the user's document.
        warnings.simplefilter("ignore")
        try:
            output = publisher.publish(enable_exit_status=False)
        except (DocumentError, RecursionError, MemoryError, KeyboardInterrupt):
            raise
        except Exception as error:
            where = _docutils_module(error)
            if where is None:
                raise  # our own code failed: a bug, answered 500 and logged
            raise DocumentError(
                "docutils_failed",
                "docutils could not process this document: %s in docutils' %s "
                "(a docutils bug this input triggers; rewriting the construct "
                "usually avoids it)." % (type(error).__name__, where),
            ) from error
    check_output(output)
    return publisher.writer.parts, publisher.document


_DOCUTILS_ROOT = os.path.dirname(sys.modules["docutils"].__file__) + os.sep
_OUR_ROOT = os.path.dirname(os.path.abspath(__file__)) + os.sep


def _docutils_module(error):
    """The docutils module an input made fail, or None when the fault is ours.

    Some inputs make docutils itself raise (e.g. a math command without its
    arguments, a substitution defined twice that refers to an undefined
    one). That is a property of the document, so it is a client error, not a
    fault of the service. The whole stack is read: once docutils is running,
    a frame of our own package further in (a directive or transform of ours
    that docutils called) makes it our bug, a 500; libraries docutils calls
    (Pygments, the standard library) count as docutils.
    """
    files = []
    frame = error.__traceback__
    while frame is not None:
        files.append(frame.tb_frame.f_code.co_filename)
        frame = frame.tb_next
    inside = [i for i, name in enumerate(files) if name.startswith(_DOCUTILS_ROOT)]
    if not inside:
        return None
    if any(name.startswith(_OUR_ROOT) for name in files[inside[0]:]):
        return None
    last = files[inside[-1]]
    return os.path.splitext(last[len(_DOCUTILS_ROOT):])[0].replace(os.sep, ".")


def document_title(document):
    return document.get("title") or ""


__all__ = ["publish", "document_title", "utils"]
