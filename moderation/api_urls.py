from django.urls import path

from .api import ReportCreateView

urlpatterns = [path("", ReportCreateView.as_view(), name="api-reports")]
