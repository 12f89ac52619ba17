"""No form of the tracker takes a file. Django caps urlencoded bodies and the
non-file fields of a multipart one (DATA_UPLOAD_MAX_MEMORY_SIZE) but streams
file parts to disk whatever their size; this upload handler, the only one
installed, refuses a multipart body over the cap before it is read and any
file part at all (a 400, as Django answers every RequestDataTooBig)."""

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.core.files.uploadhandler import FileUploadHandler


class RefuseFiles(FileUploadHandler):
    def handle_raw_input(self, input_data, META, content_length, boundary, encoding=None):
        if content_length and content_length > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
            raise RequestDataTooBig("Request body exceeded DATA_UPLOAD_MAX_MEMORY_SIZE.")

    def new_file(self, *args, **kwargs):
        raise RequestDataTooBig("This site takes no files.")

    def receive_data_chunk(self, raw_data, start):
        raise RequestDataTooBig("This site takes no files.")

    def file_complete(self, file_size):
        return None


def refused_body(request):
    """The page for a body over the cap (issue 22; before, Django's bare
    English "Bad Request (400)"): the create-match form is shown again with
    the reason in the phone's language; any other page says the same on the
    message card. The body itself is never read (that is what the cap is
    for), so none of its values can be kept: the form comes back with its
    initial values."""
    # Imported here: this module is loaded from settings, before the apps.
    from django.shortcuts import render
    from django.urls import Resolver404, resolve
    from django.utils.translation import gettext as _

    message = _(
        "What this page sent is larger than the tracker reads (%(size)s KB at most), so "
        "nothing of it was saved. Fill the form in again with shorter text."
    ) % {"size": settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 1024}
    try:
        name = resolve(request.path_info).url_name
    except Resolver404:
        name = None
    if name == "match-create":
        from tracker.forms import CreateMatchForm
        from tracker.models import Match
        from tracker.views import HOSTED_KEY

        hosted = Match.objects.filter(code__in=request.session.get(HOSTED_KEY, []))[:20]
        context = {"form": CreateMatchForm(), "hosted": hosted, "refused": message}
        return render(request, "tracker/home.html", context, status=400)
    context = {"title": _("Too large to read"), "message": message}
    return render(request, "tracker/error.html", context, status=400)
